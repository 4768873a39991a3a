"""``python -m sengoku``: the same as the ``sengoku`` command."""

from sengoku.cli import app

if __name__ == "__main__":
    app(prog_name="sengoku")
