"""The `kb` command line: a thin typer layer over the `kb` library."""
