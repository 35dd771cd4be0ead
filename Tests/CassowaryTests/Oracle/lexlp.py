#!/usr/bin/env python3
"""An independent oracle for the engine's differential test: lexicographic (strict-priority) optimisation by
sequential linear programs, one per priority level, with scipy's linprog (HiGHS).

Reads JSON from stdin: a list of systems, each {"variables": n, "constraints": [[coefficients, op, rhs,
priority], ...]} where coefficients has n entries, op is "==", "<=" or ">=", priority 1-1000 (1000 = required).
Writes JSON: for each system, {"levels": {priority: least total error}} or {"error": text}.

Each optional equality a.x = b gets errors e+ - e- = a.x - b; an optional inequality a.x <= b gets
a.x - b <= e (>= likewise); all errors >= 0. Levels are solved from the highest priority down, each keeping
the levels above at their optimum.
"""
import json
import sys

import numpy as np
from scipy.optimize import linprog


def solve(system):
    n = system["variables"]
    rows = system["constraints"]
    optional = [i for i, r in enumerate(rows) if r[3] < 1000]
    # Error columns: two per optional equality, one per optional inequality.
    error_columns = {}
    width = n
    for i in optional:
        count = 2 if rows[i][1] == "==" else 1
        error_columns[i] = list(range(width, width + count))
        width += count
    a_eq, b_eq, a_ub, b_ub = [], [], [], []
    for i, (coefficients, op, rhs, priority) in enumerate(rows):
        line = np.zeros(width)
        line[:n] = coefficients
        if priority < 1000:
            columns = error_columns[i]
            if op == "==":
                line[columns[0]] = -1.0
                line[columns[1]] = 1.0
            elif op == "<=":
                line[columns[0]] = -1.0
            else:
                line[columns[0]] = 1.0
        if op == "==":
            a_eq.append(line)
            b_eq.append(rhs)
        elif op == "<=":
            a_ub.append(line)
            b_ub.append(rhs)
        else:
            a_ub.append(-line)
            b_ub.append(-rhs)
    bounds = [(None, None)] * n + [(0, None)] * (width - n)
    levels = {}
    for priority in sorted({rows[i][3] for i in optional}, reverse=True):
        cost = np.zeros(width)
        for i in optional:
            if rows[i][3] == priority:
                for c in error_columns[i]:
                    cost[c] = 1.0
        result = linprog(cost, A_ub=np.array(a_ub) if a_ub else None, b_ub=b_ub or None,
                         A_eq=np.array(a_eq) if a_eq else None, b_eq=b_eq or None,
                         bounds=bounds, method="highs")
        if result.status != 0:
            return {"error": result.message}
        best = float(result.fun)
        levels[str(priority)] = best
        # Keep this level at its optimum for the levels below (with room for HiGHS's own tolerances, well
        # inside the test's 1e-6).
        a_ub.append(cost)
        b_ub.append(best + 1e-8 * (1 + abs(best)))
    return {"levels": levels}


def main():
    systems = json.load(sys.stdin)
    json.dump([solve(s) for s in systems], sys.stdout)


if __name__ == "__main__":
    main()
