"""The command line (typer + rich). Thin: it translates between people and actions."""
