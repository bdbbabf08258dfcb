"""``python -m atout``."""

import sys

if sys.argv[1:2] == ["bot-serve"]:
    # a bot's child process (docs/bot-protocol.md) starts without the rest of the command line
    from atout.cli.bot_serve import main
else:
    from atout.cli.main import main

main()
