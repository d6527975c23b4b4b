// Makes a live DOM subtree equal to another (a keyframe's copy) by changing only what differs:
// attributes and text set in place, children replaced one by one where their kind differs. Nodes
// kept keep their layout and their stylesheets' parsed rules, so the browser restyles and lays out
// only what changed; replacing the whole document made every seek on a long page lay out all of it
// (~180 ms on a page of 8,000 text nodes). The result has the target's nodes in the same tree
// order, so per-node facts kept by tree order still line up.

/** Same node type and, for elements, the same tag in the same namespace. */
function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  const x = a as Element, y = b as Element;
  return x.localName === y.localName && x.namespaceURI === y.namespaceURI;
}

/** Makes `current` equal to `target` (of the same kind); `target` is only read. */
export function patchNode(current: Node, target: Node) {
  switch (current.nodeType) {
    case Node.ELEMENT_NODE:
      patchAttributes(current as Element, target as Element);
      patchChildren(current, target);
      // After the children: a textarea's or option's text also sets its value while untouched.
      patchFormState(current as Element, target as Element);
      return;
    case Node.TEXT_NODE:
    case Node.COMMENT_NODE:
    case Node.CDATA_SECTION_NODE: {
      const data = (target as CharacterData).data;
      if ((current as CharacterData).data !== data) (current as CharacterData).data = data;
      return;
    }
  }
}

/** Gives `parent` the children of `target`, pairwise: same kind patched, others replaced. */
function patchChildren(parent: Node, target: Node) {
  const document = parent.ownerDocument!;
  let mine = parent.firstChild;
  let theirs = target.firstChild;
  while (theirs) {
    const next = mine?.nextSibling ?? null;
    if (mine && sameKind(mine, theirs)) patchNode(mine, theirs);
    else if (mine) parent.replaceChild(document.importNode(theirs, true), mine);
    else parent.appendChild(document.importNode(theirs, true));
    mine = next;
    theirs = theirs.nextSibling;
  }
  while (mine) {
    const next = mine.nextSibling;
    parent.removeChild(mine);
    mine = next;
  }
}

function patchAttributes(current: Element, target: Element) {
  if (sameAttributes(current.attributes, target.attributes)) return;
  for (const attribute of [...current.attributes]) {
    if (!target.hasAttributeNS(attribute.namespaceURI, attribute.localName)) {
      current.removeAttributeNode(attribute);
    }
  }
  for (const attribute of target.attributes) {
    const { namespaceURI, localName, name, value } = attribute;
    if (current.getAttributeNS(namespaceURI, localName) !== value) {
      // A prefixed name set without a namespace (rrweb builds `xlink:href` so) is refused by
      // setAttributeNS(null, …): it is set as it was made.
      if (namespaceURI === null) current.setAttribute(name, value);
      else current.setAttributeNS(namespaceURI, name, value);
    }
  }
}

/** The common case, checked first: a clone keeps the order of the attributes it copies. */
function sameAttributes(mine: NamedNodeMap, theirs: NamedNodeMap): boolean {
  if (mine.length !== theirs.length) return false;
  for (let i = 0; i < mine.length; i++) {
    const a = mine[i], b = theirs[i];
    if (a.name !== b.name || a.value !== b.value) return false;
  }
  return true;
}

/** What a clone copies besides attributes: the value and checkedness of form controls. */
function patchFormState(current: Element, target: Element) {
  switch (current.localName) {
    case "input": {
      const mine = current as HTMLInputElement, theirs = target as HTMLInputElement;
      // A file input's value cannot be set (and a replay has no files).
      if (mine.value !== theirs.value && mine.type !== "file") mine.value = theirs.value;
      if (mine.checked !== theirs.checked) mine.checked = theirs.checked;
      return;
    }
    case "textarea": {
      const mine = current as HTMLTextAreaElement, theirs = target as HTMLTextAreaElement;
      if (mine.value !== theirs.value) mine.value = theirs.value;
      return;
    }
    case "option": {
      const mine = current as HTMLOptionElement, theirs = target as HTMLOptionElement;
      if (mine.selected !== theirs.selected) mine.selected = theirs.selected;
      return;
    }
  }
}

/**
 * Makes `document`'s root equal to `root` (of another document): patched in place where it is of
 * the same kind, else replaced by an import. Returns the document's root after.
 */
export function patchDocumentElement(document: Document, root: Element): Element {
  const current = document.documentElement;
  if (current && sameKind(current, root)) {
    patchNode(current, root);
    return current;
  }
  const imported = document.importNode(root, true);
  if (current) document.replaceChild(imported, current);
  else document.appendChild(imported);
  return imported;
}
