"""The diff of mutmut 3 mutants, read from the mutated file itself (faster than one
``mutmut show`` per mutant):

    python mutant_diff.py mutants/repro/stats/agreement.py survived     # every survivor
    python mutant_diff.py mutants/repro/stats/agreement.py x_f__mutmut_3 ...
"""

import ast
import difflib
import json
import sys


def functions(path: str) -> dict:
    src = open(path).read()
    return {
        node.name: ast.get_source_segment(src, node)
        for node in ast.walk(ast.parse(src))
        if isinstance(node, ast.FunctionDef)
    }


def main(path: str, names: list[str]) -> None:
    funcs = functions(path)
    if names == ["survived"]:
        codes = json.load(open(path + ".meta"))["exit_code_by_key"]
        names = [key for key, code in codes.items() if code == 0]
    for name in names:
        name = name.rsplit(".", 1)[-1]
        orig = name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"
        before, after = funcs[orig].splitlines()[1:], funcs[name].splitlines()[1:]
        print("#", name)
        for line in difflib.unified_diff(before, after, lineterm="", n=0):
            if not line.startswith(("---", "+++", "@@")):
                print(line)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
