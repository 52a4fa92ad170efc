"""The scaling methods' table as the tests read it: the rows of
c_src/scaling/methods.c (its rope_methods and rope_method_aliases), read from
the source text, so a method added there is in the Python reference's and the
random tests' lists with no list of their own to edit (docs/SCALING.md,
"Adding a scaling method"). Only names and flags are read; no formula is.

METHODS: [{"name", "own", "factor", "required", "optional"}] in table order
(required and optional: the block keys' B_ names in lower case, "factor",
"new_rope_theta", ...); ALIASES: {old name: name}.
"""
import os
import re

SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "c_src", "scaling", "methods.c")


class TableError(Exception):
    """methods.c no longer has the shape this reader expects."""


def _strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def _braced(text, start):
    """The text inside the braces that open at text[start], and the index past them."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:j], j + 1
    raise TableError("unbalanced braces in %s" % SOURCE)


def _split(text):
    """Top-level comma-separated fields (parentheses and braces nest; a string is one field)."""
    fields, depth, cur, quoted = [], 0, [], False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "({":
            depth += 1
        elif not quoted and ch in ")}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            fields.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        fields.append("".join(cur).strip())
    return fields


def _rows(text, declaration):
    at = text.find(declaration)
    if at < 0:
        raise TableError("%s: no '%s'" % (SOURCE, declaration))
    body, _ = _braced(text, text.index("{", at + len(declaration)))
    rows, j = [], 0
    while True:
        j = body.find("{", j)
        if j < 0:
            return rows
        inner, j = _braced(body, j)
        # The page's columns, PAGE(...), follow the last reader column with no comma.
        inner = re.sub(r"\s+PAGE\s*\(.*\)\s*$", "", inner, flags=re.S)
        rows.append(_split(inner))


def _keys(field):
    """The block keys of a required or optional column: B(B_FACTOR) | B(B_ALPHA) -> {"factor", "alpha"}."""
    return frozenset(k.lower() for k in re.findall(r"\bB\(\s*B_([A-Z0-9_]+)\s*\)", field))


def read(path=SOURCE):
    with open(path, encoding="utf-8") as f:
        text = _strip_comments(f.read())
    methods = []
    for row in _rows(text, "const rope_method rope_methods[] ="):
        # name, type, required, optional, own, factor
        if len(row) != 6 or not re.fullmatch(r'"[a-z0-9_]+"', row[0]):
            raise TableError("%s: a rope_methods row of an unexpected shape: %r" % (path, row))
        methods.append({"name": row[0].strip('"'), "own": int(row[4]) != 0, "factor": int(row[5]) != 0,
                        "required": _keys(row[2]), "optional": _keys(row[3])})
    aliases = {}
    for row in _rows(text, "const char *const rope_method_aliases[][2] ="):
        if len(row) != 2:
            raise TableError("%s: an alias row of an unexpected shape: %r" % (path, row))
        aliases[row[0].strip('"')] = row[1].strip('"')
    if not methods:
        raise TableError("%s: no rope_methods rows" % path)
    return methods, aliases


METHODS, ALIASES = read()
NAMES = [m["name"] for m in METHODS]
WITHOUT_FACTOR = frozenset(m["name"] for m in METHODS if not m["factor"])
