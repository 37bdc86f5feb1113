"""The error of input that cannot be used, raised by every reader of the text layer."""


class InputError(ValueError):
    """Input that cannot be used as given: a file, a line of it, or an argument.

    The message says what and where in one line (``PATH: …``, ``PATH:LINE: …``). The
    ``hf-anon`` command reports it with exit code 2; ``hf-anon anonymize`` reports it for
    the file it concerns and goes on with the others. A ``ValueError``, so that callers
    that catch those (the demo) need not know it.
    """
