// JSON Patch (RFC 6902): the server can send a view as its difference from the last one
// (server/patch.py makes the operations). applyPatch(view, ops) gives the new view and leaves
// the old one as it was, so whatever still holds the old view (the board, the log) is safe.

/** An operation that cannot be applied: a bad path, a missing target or an unknown op. */
export class PatchError extends Error {
  constructor(message) {
    super(message);
    this.name = "PatchError";
  }
}

const OPS = new Set(["add", "remove", "replace"]);
const INDEX = /^(0|[1-9][0-9]*)$/;
const isContainer = value => typeof value === "object" && value !== null;
const unescape = token => token.replace(/~1/g, "/").replace(/~0/g, "~");
const kindOf = value => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

// obj[key] = value, also for the key "__proto__" (an own property, as JSON.parse makes it)
function put(object, key, value) {
  if (key !== "__proto__") object[key] = value;
  else Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

// parent[key], copied first (once per applyPatch: `fresh` holds the copies) if an object or array
function freshChild(parent, key, fresh) {
  const child = parent[key];
  if (!isContainer(child) || fresh.has(child)) return child;
  const copy = Array.isArray(child) ? child.slice() : { ...child };
  put(parent, key, copy);
  fresh.add(copy);
  return copy;
}

function arrayIndex(array, token, name, path, last) {
  if (token === "-" && last && name === "add") return array.length;
  if (!INDEX.test(token)) throw new PatchError(`${name} ${path}: ${JSON.stringify(token)} is not an array index`);
  const index = Number(token);
  if (index > array.length || (index === array.length && !(last && name === "add"))) {
    throw new PatchError(`${name} ${path}: no index ${index} in an array of ${array.length}`);
  }
  return index;
}

/** `doc` with the JSON Patch operations `ops` applied in order ("add", "remove" and "replace";
 *  "-" appends to an array). Neither is changed: the objects and arrays on the operations' paths
 *  are copied, the rest is shared. Throws a PatchError for an operation that cannot be applied. */
export function applyPatch(doc, ops) {
  const box = [doc]; // the path "" is the box's element 0
  const fresh = new Set();
  for (const op of ops) {
    const name = op.op, path = op.path;
    if (!OPS.has(name)) throw new PatchError(`unsupported operation ${JSON.stringify(name)}`);
    if (typeof path !== "string" || (path !== "" && path[0] !== "/")) {
      throw new PatchError(`${name} ${JSON.stringify(path)}: a path is "" or starts with "/"`);
    }
    if (name !== "remove" && !Object.hasOwn(op, "value")) throw new PatchError(`${name} ${path}: no value`);
    if (path === "") {
      if (name === "remove") throw new PatchError(`remove "": the whole document cannot be removed`);
      box[0] = op.value;
      continue;
    }
    const tokens = path.split("/").slice(1).map(unescape);
    let parent = box, key = 0;
    tokens.forEach((token, depth) => {
      parent = freshChild(parent, key, fresh);
      const last = depth === tokens.length - 1;
      if (Array.isArray(parent)) key = arrayIndex(parent, token, name, path, last);
      else if (isContainer(parent)) {
        if (!last && !Object.hasOwn(parent, token)) throw new PatchError(`${name} ${path}: no key ${JSON.stringify(token)}`);
        key = token;
      } else throw new PatchError(`${name} ${path}: ${JSON.stringify(token)} inside a ${kindOf(parent)}`);
    });
    if (Array.isArray(parent)) {
      if (name === "add") parent.splice(key, 0, op.value);
      else if (name === "remove") parent.splice(key, 1);
      else parent[key] = op.value;
    } else if (name !== "add" && !Object.hasOwn(parent, key)) {
      throw new PatchError(`${name} ${path}: no key ${JSON.stringify(key)}`);
    } else if (name === "remove") delete parent[key];
    else put(parent, key, op.value);
  }
  return box[0];
}
