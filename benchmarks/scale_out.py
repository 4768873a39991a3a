"""Scale-out: one server process against several behind HAProxy, the same load in one run.

``python benchmarks/scale_out.py --matches 100 --rounds 2``

Runs ``server_load.py``'s load (``--matches`` four-player Shitenno matches at once, every seat
acting as fast as it is answered) on one throw-away PostgreSQL cluster (fsync off), in turns:
one process as ``sengoku serve`` runs it (no proxy), then ``--processes`` processes behind
HAProxy (matches made through it, seats at their owners), ``--rounds`` times. Prints each
configuration's medians of moves per second, the servers' CPU per move (all processes
summed), HAProxy's CPU per move, and the database's commits per move (``xact_commit`` of
``pg_stat_database``, every session's), and the ratios of the several processes to one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
import server_load

ROOT = Path(__file__).resolve().parent.parent


def commits(url: str) -> int:
    """The database's committed transactions so far (the statistics lag by up to 0.5 s)."""
    with psycopg.connect(url) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def one_run(
    cluster: server_load.PostgresCluster, processes: int, proxy: bool, matches: int
) -> dict[str, Any]:
    """One load on a new database; the figures, with commits per move."""
    argv = ["--postgres", "--matches", str(matches), "--processes", str(processes)]
    saved, sys.argv = sys.argv, ["server_load.py", *argv, *(["--proxy"] if proxy else [])]
    try:
        args = server_load.parse_args()
    finally:
        sys.argv = saved
    tree = server_load.Tree("this", ROOT, "this checkout")
    options = server_load.server_options(args, tree.serve_options())[0]
    url = cluster.new_database()
    before = commits(url)
    results = server_load.run_load(tree, options, url, args)
    time.sleep(0.6)
    results["commits_per_move"] = (commits(url) - before) / max(1, results["moves"])
    problems = server_load.trouble(results, None)
    if problems:
        raise SystemExit(f"the load had problems: {problems[:5]}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    server_load.raise_open_files_limit(args.matches * 4)
    cluster = server_load.PostgresCluster()
    configs = {"1 process": (1, False), f"{args.processes} behind HAProxy": (args.processes, True)}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in configs}
    try:
        for _ in range(args.rounds):
            for name, (processes, proxy) in configs.items():
                runs[name].append(one_run(cluster, processes, proxy, args.matches))
    finally:
        cluster.stop()

    def median(name: str, key: str) -> float:
        values = [r[key] for r in runs[name] if r.get(key) is not None]
        return statistics.median(values) if values else float("nan")

    keys = [
        ("moves_per_second", "moves/s", ".0f"),
        ("server_cpu_ms_per_move", "server CPU ms/move", ".2f"),
        ("proxy_cpu_ms_per_move", "HAProxy CPU ms/move", ".3f"),
        ("commits_per_move", "commits/move", ".3f"),
    ]
    print(f"{args.matches} x shitenno (4 players), PostgreSQL fsync=off, {args.rounds} rounds")
    print("| run | " + " | ".join(label for _, label, _ in keys) + " |")
    print("|---|" + "---|" * len(keys))
    names = list(configs)
    for name in names:
        cells = [format(median(name, key), spec) for key, _, spec in keys]
        print(f"| {name} | " + " | ".join(cells) + " |")
    one, many = names
    ratios = [
        format(median(many, key) / median(one, key), ".2f")
        if key != "proxy_cpu_ms_per_move"
        else ""
        for key, _, _ in keys
    ]
    print("| ratio | " + " | ".join(ratios) + " |")
    total = median(many, "server_cpu_ms_per_move") + median(many, "proxy_cpu_ms_per_move")
    print(
        f"servers and HAProxy together: {total:.2f} ms/move, "
        f"{total / median(one, 'server_cpu_ms_per_move'):.2f} x one process"
    )


if __name__ == "__main__":
    main()
