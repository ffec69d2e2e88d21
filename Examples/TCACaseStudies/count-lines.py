#!/usr/bin/env python3
"""Counts the feature code of each case study here and in TCA, by one rule: lines that are
neither blank nor comments (`//`, `///`). TCA's side is the reducer (from `@Reducer` to its
closing brace; Todos: `enum Filter` to the view) plus its dependency client, without views,
previews, read-me text or mock data; Weft's side is the example's feature files.

    python3 Examples/TCACaseStudies/count-lines.py GIT_DIR_OF_TCA [REVISION]

GIT_DIR_OF_TCA is a clone of github.com/pointfreeco/swift-composable-architecture (a bare
one will do); REVISION defaults to HEAD.
"""
import os
import re
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Sources", "CaseStudies")
CODE = re.compile(r"^\s*(?!//)\S")

TCA = {  # example: [(file, first line pattern, last line pattern or None: whole file)]
    "Timers": [("Examples/CaseStudies/SwiftUICaseStudies/03-Effects-Timers.swift", "^@Reducer", "^}")],
    "Effects-Cancellation": [
        ("Examples/CaseStudies/SwiftUICaseStudies/03-Effects-Cancellation.swift", "^@Reducer", "^}"),
        ("Examples/CaseStudies/SwiftUICaseStudies/FactClient.swift", None, None),
    ],
    "Search": [
        ("Examples/Search/Search/SearchView.swift", "^@Reducer", "^}"),
        ("Examples/Search/Search/WeatherClient.swift", None, None),
    ],
    "Todos": [
        ("Examples/Todos/Todos/Todos.swift", "^enum Filter", "^struct AppView"),
        ("Examples/Todos/Todos/Todo.swift", "^@Reducer", "^}"),
    ],
}
WEFT = {
    "Timers": ["Timers.swift"],
    "Effects-Cancellation": ["EffectsCancellation.swift", "FactClient.swift"],
    "Search": ["Search.swift", "WeatherClient.swift"],
    "Todos": ["Todos.swift", "Todo.swift"],
    "shared": ["APIError.swift"],
}


def count(lines):
    return sum(1 for line in lines if CODE.match(line))


def tca_lines(git_dir, revision, path, first, last):
    text = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{revision}:{path}"],
        check=True, capture_output=True, text=True).stdout
    lines = text.splitlines()
    if path.endswith("WeatherClient.swift"):  # drop the mock data (TCA's tests and previews)
        start = lines.index("// MARK: - Mock data")
        end = lines.index("// MARK: - Private helpers")
        lines = lines[:start] + lines[end:]
    if first is None:
        return lines
    start = next(i for i, line in enumerate(lines) if re.match(first, line))
    end = next(i for i in range(start + 1, len(lines)) if re.match(last, lines[i]))
    return lines[start:end + 1] if last == "^}" else lines[start:end]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    git_dir, revision = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "HEAD")
    print(f"{'example':22} {'TCA':>5} {'Weft':>5} {'change':>7}")
    for example, files in WEFT.items():
        weft = 0
        for name in files:
            path = os.path.join(HERE, name)
            if os.path.exists(path):
                with open(path, encoding="utf-8") as handle:
                    weft += count(handle.read().splitlines())
        tca = sum(count(tca_lines(git_dir, revision, *spec)) for spec in TCA.get(example, []))
        change = f"{(weft - tca) / tca * 100:+.0f} %" if tca else "-"
        print(f"{example:22} {tca:>5} {weft:>5} {change:>7}")


if __name__ == "__main__":
    main()
