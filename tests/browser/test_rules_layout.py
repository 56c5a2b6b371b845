"""Every rules page (and the home page) on a 360 px phone and a desktop: a
screenshot of each under var/screenshots/, and nothing wider than the viewport."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
PAGES = {
    "home": "/",
    "rules-index": "/zasady/",
    "rules-kropki": "/zasady/kropki/",
    "rules-cztery-w-rzedzie": "/zasady/cztery-w-rzedzie/",
    "rules-kropki-i-kwadraty": "/zasady/kropki-i-kwadraty/",
}
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}

OVERFLOW_JS = """
() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.right > width + 1 || box.left < -1) {
      wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className} right=${Math.round(box.right)}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, wide: wide.slice(0, 10)};
}
"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_rules_pages_fit_the_screen(new_context, live_url, viewport, lang):
    context = new_context(viewport=VIEWPORTS[viewport])
    host = live_url.split("://", 1)[1].split("/", 1)[0].split(":")[0]
    context.add_cookies([{"name": "kropki_language", "value": lang, "domain": host, "path": "/"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, path in PAGES.items():
        response = page.goto(path)
        assert response is not None and response.status == 200, path
        assert page.locator("html").get_attribute("lang") == lang
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{viewport}-{lang}.png"), full_page=True)
        result = page.evaluate(OVERFLOW_JS)
        assert result["scrollWidth"] <= result["innerWidth"], (path, viewport, result)
        assert not result["wide"], (path, viewport, result["wide"])
        if name.startswith("rules-") and name != "rules-index":
            # The diagrams are drawn and visible.
            assert page.locator("figure.diagram svg.board").count() >= 4
            assert page.locator("figure.diagram svg.board").first.is_visible()
    assert not [e for e in errors if "Content Security Policy" in e], errors
