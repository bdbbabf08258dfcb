"""``python -m atout``."""

from atout.cli.main import main

main()
