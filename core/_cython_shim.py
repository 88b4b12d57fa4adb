"""The few names of Cython's pure-Python mode that hot modules use, for running them
interpreted where Cython is not installed (a runtime image)."""

compiled = False
int = char = longlong = ulonglong = Py_ssize_t = int
bint = bool
void = p_char = p_int = p_ulonglong = None


def declare(_type=None, value=None):
    return value


def cast(_type, value):
    return value


def _identity(func):
    return func


cfunc = ccall = inline = _identity
