"""Numbers on the Chinese pages as on the English ones: 8,686.20 (Django's zh_Hans groups by
none; the product shows money and sizes with thousands separators in both languages, issue 39).
Dates and the rest come from Django's own zh_Hans formats."""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
