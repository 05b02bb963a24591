"""Numbers on the English pages: 8,686.20 (Django's own en formats, said here beside zh_Hans's)."""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
