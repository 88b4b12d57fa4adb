"""A browser really talks to the HTTP port: Debian's headless chromium (chromium-driver, selenium)
loads the page at / (service/web/static, connect-web), which lists the games from ListGames and
deals a round, and the dealer's view of every seat is on the page."""
import shutil

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the [dev] extra)")
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="Debian's chromium and chromium-driver are not "
                                "installed (make test installs them where apt-get can)")


@pytest.fixture
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def test_the_page_lists_the_games_and_shows_a_dealt_hand(make_server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    srv, _, _ = make_server(http_port=0)
    browser.get(srv.http.url + "/")
    wait = WebDriverWait(browser, 30)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    ids = {li.get_attribute("data-id") for li in browser.find_elements(By.CSS_SELECTOR, "li.game")}
    assert {"doudizhu", "mcr", "q783", "bidaxiao"} <= ids
    browser.find_element(By.ID, "deal-doudizhu").click()
    wait.until(ready.presence_of_element_located((By.ID, "dealt")))
    rows = browser.find_elements(By.CSS_SELECTOR, "tr.view")
    assert [r.get_attribute("data-seat") for r in rows] == ["0", "1", "2"]
    hands = [r.find_element(By.CLASS_NAME, "hand").text.split() for r in rows]
    assert [len(h) for h in hands] == [17, 17, 17]  # Dou Dizhu deals 17 each, the kitty face down
    assert browser.find_element(By.ID, "dealt").text.startswith("doudizhu: to act")
