"""``python -m server``: the same as the ``guandan-server`` console script."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
