"""The one exception type that the study raises for bad input."""


class RobotaskError(ValueError):
    """Bad input: the message names the file, key or parameter and what was expected.

    The CLI and the notebook runner print the message alone, without a traceback.
    """
