"""Command-line front ends of atout."""
