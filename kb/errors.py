"""The one error family of judge-kb. The library raises these; only the CLI prints them."""


class KBError(Exception):
    """Base class: a problem a user can understand from its one-line message.

    `source` and `line` say where in the user's input the problem is, when it is in a file.
    """

    kind = "error"

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.line = line


class NotFoundError(KBError):
    """An entry, card, clause or file the user named does not exist."""

    kind = "not-found"


class InputError(KBError):
    """Input the user gave (a file, a date, an option) cannot be used."""

    kind = "input"


class StoreError(KBError):
    """The KB or index on disk is missing, stale, corrupt or locked."""

    kind = "store"


class IndexModelError(StoreError):
    """The search index was embedded by another model than the queries are. `rebuilt_same`: a rebuild
    would embed with that model again (`KB_EMBEDDER` names a fake one), so rebuilding can't help."""

    def __init__(self, message: str, *, rebuilt_same: bool = False) -> None:
        super().__init__(message)
        self.rebuilt_same = rebuilt_same


class CheckError(KBError):
    """A scenario check file is malformed or attaches to no entry."""

    kind = "check"
