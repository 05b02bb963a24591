"""Read a form out of a page as a browser would submit it (no JavaScript): the values of its
inputs, checked boxes, selected options and textareas. Lets a test load a form in one session and
post exactly what that page held, hidden fields included."""

from __future__ import annotations

from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"action": a.get("action", ""), "fields": []}
            self.forms.append(self._form)
        if self._form is None:
            return
        if tag == "input" and a.get("name") and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._form["fields"].append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button", "file", "reset"):
                self._form["fields"].append((a["name"], a.get("value", "")))
        elif tag == "select" and a.get("name"):
            self._select = {"name": a["name"], "multiple": "multiple" in a, "options": []}
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "selected": "selected" in a, "text": ""}
            self._select["options"].append(self._option)
        elif tag == "textarea" and a.get("name"):
            self._textarea = {"name": a["name"], "text": ""}

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        if tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None:
            options = self._select["options"]
            chosen = [o for o in options if o["selected"]]
            if not chosen and options and not self._select["multiple"]:
                chosen = options[:1]
            for option in chosen:
                value = option["value"] if option["value"] is not None else option["text"]
                self._form["fields"].append((self._select["name"], value))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            # The HTML parser keeps the newline after <textarea>, which browsers drop.
            text = self._textarea["text"].removeprefix("\n")
            self._form["fields"].append((self._textarea["name"], text))
            self._textarea = None
        elif tag == "form":
            self._form = None


def read_form(html: str, *, action: str | None = None, having: str = "version") -> dict:
    """The submitted values of the first form whose action ends with `action` (any when None)
    and that has a field named `having`; a name given several times maps to a list."""
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        names = [name for name, _ in form["fields"]]
        if having not in names or (action is not None and not form["action"].endswith(action)):
            continue
        data: dict = {}
        for name, value in form["fields"]:
            if name in data:
                data[name] = [
                    *(data[name] if isinstance(data[name], list) else [data[name]]),
                    value,
                ]
            else:
                data[name] = value
        data.pop("csrfmiddlewaretoken", None)
        return data
    raise AssertionError(f"no form with a {having!r} field (action {action!r}) in the page")
