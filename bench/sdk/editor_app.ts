// The heavy page's application code (runs in the browser, passed as source via toString()): a
// markdown editor whose preview, outline and status bar are re-rendered on every keystroke.

/** Installs the editor on `#editor`, `#preview`, `#toc` and the toolbar; call once after load. */
export function editorApp(): void {
  const $ = (id: string) => document.getElementById(id)!;
  const editor = $("editor") as HTMLTextAreaElement;
  const preview = $("preview");
  const toc = $("toc");
  const status = $("status");
  const KEYWORDS = /\b(const|let|function|return|if|else|for|while|import|export|class|new)\b/g;

  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/\*([^*]+)\*/g, "<em>$1</em>")
      .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>');
  // Editor.md highlights code with prettify: one span per token, which is most of the nodes.
  const highlight = (line: string) =>
    esc(line)
      .replace(/("[^"]*")/g, '<span class="str">$1</span>')
      .replace(/\b(\d+)\b/g, '<span class="lit">$1</span>')
      .replace(KEYWORDS, '<span class="kwd">$1</span>')
      .replace(/([(){}[\];,.])/g, '<span class="pun">$1</span>');

  function render(md: string): { html: string; headings: [number, string][] } {
    const lines = md.split("\n");
    const out: string[] = [];
    const headings: [number, string][] = [];
    for (let i = 0; i < lines.length;) {
      const line = lines[i];
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (line.startsWith("```")) {
        const code: string[] = [];
        for (i++; i < lines.length && !lines[i].startsWith("```"); i++) {
          code.push(`<li class="L${code.length % 10}">${highlight(lines[i])}</li>`);
        }
        i++;
        out.push(
          `<pre class="prettyprint linenums"><ol class="linenums">${code.join("")}</ol></pre>`,
        );
      } else if (heading) {
        const n = heading[1].length;
        headings.push([n, heading[2]]);
        out.push(
          `<h${n} id="h${headings.length}"><a class="anchor" href="#h${headings.length}"></a>${
            inline(heading[2])
          }</h${n}>`,
        );
        i++;
      } else if (/^[-*] /.test(line) || /^\d+\. /.test(line)) {
        const tag = /^\d/.test(line) ? "ol" : "ul";
        const items: string[] = [];
        for (; i < lines.length && /^([-*]|\d+\.) /.test(lines[i]); i++) {
          items.push(`<li>${inline(lines[i].replace(/^([-*]|\d+\.) /, ""))}</li>`);
        }
        out.push(`<${tag}>${items.join("")}</${tag}>`);
      } else if (line.startsWith("|")) {
        const rows: string[] = [];
        for (; i < lines.length && lines[i].startsWith("|"); i++) {
          if (/^\|[-| ]+\|$/.test(lines[i])) continue;
          const cell = rows.length === 0 ? "th" : "td";
          const cells = lines[i].slice(1, -1).split("|").map((c) =>
            `<${cell}>${inline(c.trim())}</${cell}>`
          );
          rows.push(`<tr>${cells.join("")}</tr>`);
        }
        out.push(`<table><tbody>${rows.join("")}</tbody></table>`);
      } else if (line.trim() === "") {
        i++;
      } else {
        const para: string[] = [];
        for (
          ;
          i < lines.length && lines[i].trim() !== "" && !/^(#|```|\||[-*] |\d+\. )/.test(lines[i]);
          i++
        ) {
          para.push(inline(lines[i]));
        }
        out.push(`<p>${para.join("<br>")}</p>`);
      }
    }
    return { html: out.join("\n"), headings };
  }

  function update(): void {
    const { html, headings } = render(editor.value);
    preview.innerHTML = html;
    toc.innerHTML = headings
      .map(([n, text], i) => `<li class="toc-h${n}"><a href="#h${i + 1}">${esc(text)}</a></li>`)
      .join("");
    const words = editor.value.split(/\s+/).length;
    status.textContent =
      `${editor.value.length} characters · ${words} words · ${headings.length} headings`;
  }

  function wrapSelection(before: string, after: string): void {
    const { selectionStart: s, selectionEnd: e, value } = editor;
    editor.value = value.slice(0, s) + before + value.slice(s, e) + after + value.slice(e);
    editor.selectionStart = editor.selectionEnd = e + before.length;
    editor.focus();
    update();
  }

  editor.addEventListener("input", update);
  // Editor.md keeps the preview scrolled in step with the editor.
  editor.addEventListener("scroll", () => {
    const f = editor.scrollTop / Math.max(1, editor.scrollHeight - editor.clientHeight);
    preview.scrollTop = f * (preview.scrollHeight - preview.clientHeight);
  });
  $("bold").addEventListener("click", () => wrapSelection("**", "**"));
  $("italic").addEventListener("click", () => wrapSelection("*", "*"));
  $("heading").addEventListener("click", () => wrapSelection("\n## ", "\n"));
  $("toggle-toc").addEventListener("click", () => document.body.classList.toggle("toc-hidden"));
  $("theme").addEventListener("click", () => document.body.classList.toggle("dark"));
  $("help").addEventListener("click", () => {
    const dialog = document.createElement("div");
    dialog.className = "dialog";
    dialog.innerHTML = `<h2>Markdown help</h2><button id="close">Close</button>` +
      render($("help-source").textContent!).html;
    document.body.appendChild(dialog);
    $("close").addEventListener("click", () => dialog.remove());
  });
  update();
}
