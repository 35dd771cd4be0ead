"""The layout problems a suite already knows of: a run judged against them fails only on the others, and says which
problems are new, which were known and which known ones are gone (``pytest --traitd-baseline FILE``,
``traitctl scenario run --baseline FILE``, ``traitctl explore --baseline FILE``).

A problem is known by its app, its rule and its element (an overlap's element names both, ``a & b``), never by where
it is or its sentence, which change with every point the layout moves. The file is the one traitctl reads and writes
(``ProblemBaseline`` in Swift): text, one problem a line as ``APP RULE ELEMENT``, sorted, after a comment; ``#``
comments and blank lines are skipped, so a person reads it in a review and deletes the line of a problem fixed."""

from __future__ import annotations

import dataclasses
import difflib
import os
import tempfile
from collections.abc import Iterable

from ._contract import LAYOUT_RULES

HEADER = ("# traitd baseline: the layout problems known when it was written, one a line as APP RULE ELEMENT.\n"
          "# A run given --baseline fails only on problems not listed here; delete the line of a problem fixed,\n"
          "# or write the file again with --update-baseline.\n")


@dataclasses.dataclass(frozen=True, order=True)
class Problem:
    """A layout problem as a baseline knows it."""

    app: str
    rule: str
    element: str

    def __str__(self) -> str:
        return f"{self.app} {self.rule} {self.element}"

    @classmethod
    def of(cls, found: dict[str, str]) -> Problem:
        """A problem as the pytest fixture's ``layout_problems()`` gives it (``app``, ``rule``, ``element``...)."""
        return cls(found["app"], found["rule"], found["element"])


class BaselineError(ValueError):
    """A baseline file that cannot be read: ``FILE:LINE:COLUMN: what was expected``."""


@dataclasses.dataclass
class Comparison:
    """A run's problems beside the baseline's, each list sorted."""

    new: list[Problem]
    known: list[Problem]
    resolved: list[Problem]

    def report(self, file: str) -> list[str]:
        """``baseline FILE: 1 new, 12 known, 2 resolved``, then a line for each new and each resolved problem."""
        return ([f"baseline {file}: {len(self.new)} new, {len(self.known)} known, {len(self.resolved)} resolved"]
                + [f"  new: {p}" for p in self.new] + [f"  resolved: {p}" for p in self.resolved])


def parse(text: str, file: str) -> set[Problem]:
    """The problems in ``text``, the contents of ``file``; raises ``BaselineError`` at a line that is not
    ``APP RULE ELEMENT`` with a rule traitd knows."""
    problems: set[Problem] = set()
    for number, line in enumerate(text.split("\n"), start=1):
        content = line.lstrip(" \t")
        if not content or content.startswith("#"):
            continue
        column = len(line) - len(content) + 1
        # APP, then RULE after the spaces that follow, then the rest (an element's name may hold spaces: `a & b`).
        app, _, rest = content.partition(" ")
        rest = rest.lstrip(" ")
        rule, _, element = rest.partition(" ")
        element = element.strip(" \t\r")
        if not rule or not element:
            raise BaselineError(f"{file}:{number}:{column}: expected a problem as APP RULE ELEMENT "
                                f"(`mail overlap a & b`), got '{content.rstrip()}'")
        if rule not in LAYOUT_RULES:
            close = difflib.get_close_matches(rule, LAYOUT_RULES, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise BaselineError(f"{file}:{number}:{column + len(content) - len(rest)}: '{rule}' is not a rule: {hint}"
                                f"expected one of {', '.join(LAYOUT_RULES)}")
        problems.add(Problem(app, rule, element))
    return problems


def read(path: str) -> set[Problem]:
    """The problems in the baseline file at ``path``."""
    with open(path, encoding="utf-8") as file:
        return parse(file.read(), path)


def text(problems: Iterable[Problem]) -> str:
    """The file's text: what it is, then a problem a line, sorted."""
    return HEADER + "\n" + "".join(f"{p}\n" for p in sorted(set(problems)))


def write(path: str, problems: Iterable[Problem]) -> None:
    """Writes the baseline file atomically (a temporary file beside it, then a rename)."""
    folder = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".baseline-")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text(problems))
    os.replace(temporary, path)


def compare(known: set[Problem], found: Iterable[Problem]) -> Comparison:
    """``found`` beside the baseline's ``known`` problems."""
    found = set(found)
    return Comparison(new=sorted(found - known), known=sorted(found & known), resolved=sorted(known - found))
