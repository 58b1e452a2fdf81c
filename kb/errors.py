"""The one error family of judge-kb. The library raises these; only the CLI prints them."""


class KBError(Exception):
    """Base class: a problem a user can understand from its one-line message."""


class NotFoundError(KBError):
    """An entry, card, clause or file the user named does not exist."""


class InputError(KBError):
    """Input the user gave (a file, a date, an option) cannot be used."""


class StoreError(KBError):
    """The KB or index on disk is missing, stale, corrupt or locked."""


class CheckError(KBError):
    """A scenario check file is malformed or attaches to no entry."""
