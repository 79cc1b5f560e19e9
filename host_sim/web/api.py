"""Checking what a page sends: every problem becomes an ApiError with an HTTP status."""

import iago


class ApiError(Exception):
    """A request the server refuses; `status` is the HTTP status (4xx), the text the reason."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message):
    return ApiError(400, message)


def conflict(message):
    """The request is well formed but the board cannot do it now."""
    return ApiError(409, message)


def field(body, name, kind, default=None, required=True):
    """body[name], checked to be of `kind` (a type or a tuple of types)."""
    if name not in body:
        if required:
            raise bad("missing field %r" % name)
        return default
    value = body[name]
    if kind in (int, float) and isinstance(value, bool):
        raise bad("%r must be a number, not %s" % (name, _json_type(value)))
    if kind is float and isinstance(value, int):
        value = float(value)
    if not isinstance(value, kind):
        raise bad("%r must be %s, not %s" % (name, _kind_name(kind), _json_type(value)))
    return value


def cell(body, name="cell", parse=iago.parse_cell):
    """A cell name such as "E4" from body[name], as the cell number (`parse`: the board's
    geometry, the hex board's by default)."""
    text = field(body, name, str)
    try:
        return parse(text)
    except iago.IagoError as exc:
        raise bad(str(exc))


def number(body, name, low, high, default=None, required=True):
    value = field(body, name, float, default, required)
    if value is None:
        return None
    if not low <= value <= high:
        raise bad("%r must be between %g and %g, not %g" % (name, low, high, value))
    return value


def flag(body, name, default=None, required=True):
    return field(body, name, bool, default, required)


def _kind_name(kind):
    names = {str: "a string", bool: "true or false", float: "a number", int: "a whole number",
             dict: "an object", list: "a list"}
    return names.get(kind, getattr(kind, "__name__", str(kind)))


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
