"""The ``annals`` command line: thin typer commands, one library call each."""
