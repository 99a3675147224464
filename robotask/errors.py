"""The one exception type that the study raises for bad input."""


class RobotaskError(ValueError):
    """Bad input: the message names the file, key or parameter and what was expected.

    The CLI and the notebook runner print the message alone, without a traceback.
    """


class RobotaskWarning(UserWarning):
    """A run that can honestly go on with degraded input: the message states what and by how much."""
