#!/usr/bin/env bash
# Say each thing once: an error's message says what went wrong, and its status's rule name is
# printed once, by blvl__fail ("<rule>: <message>") or the CLI's cli_failf. This test reads the
# C sources of src/ and cli/ and refuses:
#
# * a message literal that starts with a rule name and a colon ("argument: no output",
#   "nomem: shader set"), or whose text after a layer's "word: " prefixes does ("trace: door:
#   argument: ..."): the prefix already prints it;
# * "out of memory", "no memory" or "nomem" in a message: the out-of-memory rule says that,
#   the message says what could not be allocated;
# * blvl__fail with BLVL_E_NOMEM: allocation failures go through blvl__nomem(err, what);
# * a layer that inspects another's message text (strncmp/strstr/memcmp on ->message or
#   .message) to strip or recognise its prefix: the status is passed on instead;
# * the local wrappers that only forwarded (blvl__hb_pass, blvl__hb_nomem, ...) coming back.
#
# tests/test_error_messages.c checks real refusals end to end.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"

python3 - <<'PY'
import glob, re, sys

table = dict(re.findall(r'\[(BLVL_\w+)\]\s*=\s*"([a-z0-9-]+)"', open("src/common/error.c").read()))
assert table.get("BLVL_E_ARGUMENT") == "argument" and table.get("BLVL_E_NOMEM") == "out-of-memory"
# what a message may not start with, per status: its rule name, and for memory its old spellings
own = {code: {name} for code, name in table.items()}
own["BLVL_E_NOMEM"] |= {"nomem", "oom", "out of memory", "no memory"}

# Calls that format a message, and which argument is the message's format (after the status).
# Layers' own helpers keep state (xp_fail, set_error: the first refusal sticks) or add context
# (bfail: the JSON path); their formats are checked the same.
fmt_arg = {"blvl__fail": 2, "blvl__nomem": 1, "cli_failf": 2, "xp_fail": 2,
           "blvl__http_conn_refuse": 2, "set_error": 2, "bfail": 1, "blvl__fail_source": 6}
code_arg = {"blvl__fail": 1, "blvl__nomem": None, "cli_failf": 1, "xp_fail": 1,
            "blvl__http_conn_refuse": 1, "set_error": 1, "bfail": None, "blvl__fail_source": None}
caller = re.compile(r'\b(' + "|".join(fmt_arg) + r')\s*\(')
lit = re.compile(r'"((?:[^"\\]|\\.)*)"')

def strip_comments(s):
    # keep line numbers: replace comments by as many newlines
    def repl(m):
        return "\n" * m.group(0).count("\n")
    return re.sub(r'/\*.*?\*/|//[^\n]*', repl, s, flags=re.S)

def call_args(s, i):
    """The call's top-level arguments, from the '(' at i to its match."""
    depth, j, instr, cur, out = 0, i, False, "", []
    while j < len(s):
        c = s[j]
        if instr:
            cur += c
            if c == "\\":
                cur += s[j + 1]
                j += 2
                continue
            if c == '"':
                instr = False
        elif c == '"':
            instr = True
            cur += c
        elif c in "([{":
            depth += 1
            if depth > 1:
                cur += c
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(cur.strip())
                return out
            cur += c
        elif c == "," and depth == 1:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        j += 1
    return out

bad = []
files = sorted(glob.glob("src/**/*.[ch]", recursive=True) + glob.glob("cli/*.[ch]"))
for f in files:
    if f.startswith("src/sections/gen/"):
        continue
    s = strip_comments(open(f, encoding="utf-8").read())
    for m in caller.finditer(s):
        line = s.count("\n", 0, m.start()) + 1
        fn = m.group(1)
        args = call_args(s, m.end() - 1)
        if len(args) <= fmt_arg[fn] or not args[fmt_arg[fn]].startswith('"'):
            continue  # a declaration, or a format that is not a literal
        text = "".join(lit.findall(args[fmt_arg[fn]]))
        code = "BLVL_E_NOMEM" if fn == "blvl__nomem" else \
            (args[code_arg[fn]] if code_arg[fn] is not None else None)
        if fn == "blvl__fail" and code == "BLVL_E_NOMEM":
            bad.append(f"{f}:{line}: blvl__fail with BLVL_E_NOMEM: use blvl__nomem(err, what)")
        low = text.lower()
        if code == "BLVL_E_NOMEM" or fn == "blvl__nomem":
            for phrase in ("out of memory", "no memory", "nomem", "out-of-memory"):
                if phrase in low:
                    bad.append(f'{f}:{line}: "{text}" says "{phrase}": the rule says it; '
                               "say what could not be allocated")
                    break
        # the status's rule name, at the start or after a layer's "word: " prefixes
        names = own.get(code, set()) if code else set()
        if fn == "blvl__fail_source":
            names = set(table.values())  # a source refusal has no status prefix but its rule's
        pieces = low.split(": ")
        for p in pieces[:-1]:
            if p in names:
                bad.append(f'{f}:{line}: "{text}" repeats the rule "{p}" its status prints')
                break
            if not re.fullmatch(r"[a-z][a-z0-9 _.-]*", p):
                break  # past the prefixes
    for m in re.finditer(r'\b(strncmp|strstr|memcmp|strcmp)\s*\([^;()]*\bmessage\b', s):
        if f == "src/common/error.c":
            continue  # the one place that writes the prefix may read it (blvl__error_text)
        line = s.count("\n", 0, m.start()) + 1
        bad.append(f"{f}:{line}: reads another layer's message text; pass the status on")
    for w in ("blvl__hb_pass", "blvl__hb_nomem", "blvl__hb_fail", "blvl__rb_nomem", "blvl__ssb_nomem",
              "blvl__q3_nomem"):
        for m in re.finditer(r'\b' + w + r'\b', s):
            line = s.count("\n", 0, m.start()) + 1
            bad.append(f"{f}:{line}: {w}: a wrapper that only forwards; call blvl__nomem or "
                       "the failure's own status")

for b in bad:
    print(b)
print(f"{len(bad)} message problem(s) in {len(files)} files")
sys.exit(1 if bad else 0)
PY
