"""Exceptions of the rules package; each message names the offending token."""


class IagoError(ValueError):
    """Base class of every error raised for bad input."""


class InvalidCellError(IagoError):
    """A cell name or index that is not on the board."""


class InvalidPositionError(IagoError):
    """Position text that cannot be read."""


class InvalidRulesError(IagoError):
    """A rules name that is unknown or combines flags that do not go together."""


class IllegalMoveError(IagoError):
    """A placement the rules do not allow in this position."""


class InvalidRecordError(IagoError):
    """A game record that cannot be read or replayed."""
