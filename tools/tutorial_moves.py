"""Write a tutorial's script: play its match with bots and list every move, to choose the steps.

    python tools/tutorial_moves.py shogun --players 3 --seed 7 --options '{"years": 1}' \\
        --write src/sengoku/games/shogun/data/tutorial/script.json

prints each move: its number (a step's ``at``), the seat, the phase, how many choices the
seat had, its notation and how the log reads it in English. ``--force N=NOTATION`` plays
another move than the bot's at move N (the bots go on from there). With ``--write`` the moves go
into the script (its steps, if the file has some, are kept). ``--replay FILE`` lists the moves
of an existing script instead, with the step that shows at each (see
:mod:`sengoku.core.tutorial`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sengoku.ai import make_agent
from sengoku.core import get_game, new_match, render
from sengoku.games.catalog import catalog


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--until", type=int, default=None, help="stop after this many moves")
    parser.add_argument(
        "--force",
        action="append",
        default=[],
        metavar="N=NOTATION",
        help="play this move as move N instead of the bot's choice (repeatable)",
    )
    parser.add_argument("--write", type=Path)
    parser.add_argument("--replay", type=Path)
    args = parser.parse_args()
    words = catalog(args.game, "en")
    if args.replay:
        script = json.loads(args.replay.read_text())
        args.players, args.seed = script["players"], script["seed"]
        args.options = json.dumps(script.get("options", {}))
        moves = [tuple(m) for m in script["moves"]]
        steps = script["steps"]
    else:
        moves, steps = None, []
    match = new_match(args.game, args.players, seed=args.seed, options=json.loads(args.options))
    forced = {int(n): text for n, _, text in (f.partition("=") for f in args.force)}
    agents = [make_agent(args.agent, args.seed * 10 + s) for s in range(args.players)]
    played: list[tuple[int, str]] = []
    while match.to_act() and (args.until is None or len(played) < args.until):
        if moves is not None and len(played) == len(moves):
            break
        seat = match.to_act()[0] if moves is None else moves[len(played)][0]
        legal = match.legal_actions(seat)
        view = match.view(seat)
        if moves is not None:
            action = match.parse_action(seat, moves[len(played)][1])
        elif len(played) in forced:
            action = match.parse_action(seat, forced[len(played)])
        else:
            action = agents[seat].choose(view, legal)
        mark = _marks(steps, len(played))
        text = render(get_game(args.game).action_message(action), words)
        phase = str(view.get("phase"))
        print(f"{len(played):4} s{seat} {phase:10} {len(legal):3} {action}  | {text}{mark}")
        played.append((seat, str(action)))
        match.act(seat, action)
    if match.outcome() is not None:
        print("the match is over:", match.outcome(), _marks(steps, len(played)))
    if args.write:
        script = json.loads(args.write.read_text()) if args.write.exists() else {}
        script.update(
            players=args.players,
            seed=args.seed,
            options=json.loads(args.options),
            seat=script.get("seat", 0),
            moves=[list(m) for m in played],
            steps=script.get("steps", []),
        )
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(json.dumps(script, ensure_ascii=False, indent=1) + "\n")


def _marks(steps: list[dict], at: int) -> str:
    """The steps that show once ``at`` moves are played (several may share a position)."""
    shown = [f"{s['id']}{' (do)' if s.get('do') else ''}" for s in steps if s["at"] == at]
    return f"  <- {', '.join(shown)}" if shown else ""


if __name__ == "__main__":
    main()
