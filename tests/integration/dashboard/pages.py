"""Horizon's pages as a user clicks through them in the browser tests.

The element names are Horizon's own: the login form's ``id_username`` /
``id_password``, table rows ``tr[data-display=<name>]`` whose row actions
have the ids ``instances__row_<id>__action_<action>``, and batch actions
confirmed in a modal dialog.
"""

from __future__ import annotations

import time

PAGE_TIMEOUT = 120
STATUS_TIMEOUT = 180


class HorizonPages:
    """One browser session on one dashboard."""

    def __init__(self, driver, url: str) -> None:
        self.driver = driver
        self.url = url.rstrip("/")
        driver.set_page_load_timeout(PAGE_TIMEOUT)

    def open(self, path: str) -> None:
        self.driver.get(self.url + path)

    def login(self, username: str, password: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.open("/auth/login/")
        self.driver.find_element(By.ID, "id_username").send_keys(username)
        self.driver.find_element(By.ID, "id_password").send_keys(password)
        self.driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(self.driver, PAGE_TIMEOUT).until(
            lambda driver: "/auth/login" not in driver.current_url,
            message=f"{username} could not log in",
        )

    def title(self) -> str:
        return self.driver.title

    def table_texts(self, table_id: str) -> list[list[str]]:
        """The visible text of each cell of each body row of a table."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll("
            "`table#${arguments[0]} tbody tr`)).map("
            "r => Array.from(r.cells).map(c => c.innerText.trim()))",
            table_id,
        )

    def instance_row_texts(self, name: str) -> list[str] | None:
        """The cells of the instances table's row for ``name``, or None."""
        return self.driver.execute_script(
            "const r = document.querySelector("
            "`table#instances tr[data-display='${arguments[0]}']`);"
            "return r ? Array.from(r.cells).map(c => c.innerText.trim()) : null",
            name,
        )

    def wait_for_instance(self, name: str, status: str | None) -> list[str] | None:
        """Reload the instances page until ``name``'s row shows ``status``
        (None: until the row is gone); the row's cells."""
        deadline = time.monotonic() + STATUS_TIMEOUT
        row = None
        while time.monotonic() < deadline:
            self.open("/project/instances/")
            row = self.instance_row_texts(name)
            if (row is None and status is None) or (row and status in row):
                return row
            time.sleep(2)
        raise AssertionError(f"{name}: row {row} never showed status {status}")

    def instance_action(self, server_id: str, action: str, confirm: bool) -> None:
        """Pick ``action`` from the row's actions (its button or its menu),
        and confirm it in the dialog Horizon opens for actions that ask."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait

        self.open("/project/instances/")
        row = self.driver.find_element(By.ID, f"instances__row__{server_id}")
        element_id = f"instances__row_{server_id}__action_{action}"
        buttons = row.find_elements(By.ID, element_id)
        if not buttons or not buttons[0].is_displayed():
            row.find_element(By.CSS_SELECTOR, ".dropdown-toggle").click()
        WebDriverWait(self.driver, PAGE_TIMEOUT).until(
            ec.element_to_be_clickable((By.ID, element_id))
        ).click()
        if confirm:
            WebDriverWait(self.driver, PAGE_TIMEOUT).until(
                ec.element_to_be_clickable(
                    (By.CSS_SELECTOR, ".modal-dialog .modal-footer .btn-danger")
                )
            ).click()

    def launch_instance(self, name: str, image: str, flavor: str, network: str) -> None:
        """Launch ``name`` through the launch wizard: the image as its source,
        the flavor, and the network allocated (unless Horizon did already)."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait

        wait = WebDriverWait(self.driver, PAGE_TIMEOUT)
        self.open("/project/instances/")
        wait.until(
            ec.element_to_be_clickable((By.LINK_TEXT, "Launch Instance"))
        ).click()
        wizard = wait.until(ec.visibility_of_element_located((By.TAG_NAME, "wizard")))
        wait.until(ec.visibility_of_element_located((By.ID, "name"))).send_keys(name)
        steps = wizard.find_element(By.CSS_SELECTOR, "div.wizard-nav")
        for step, form, label in (
            ("Source", "launchInstanceSourceForm", image),
            ("Flavor", "launchInstanceFlavorForm", flavor),
            ("Networks", "launchInstanceNetworkForm", network),
        ):
            steps.find_element(By.LINK_TEXT, step).click()
            section = wizard.find_element(
                By.CSS_SELECTOR, f"ng-include[ng-form={form}]"
            )
            self._allocate(section, label)
        wait.until(
            ec.element_to_be_clickable((By.CSS_SELECTOR, "button.btn-primary.finish"))
        ).click()
        wait.until(ec.invisibility_of_element_located((By.TAG_NAME, "wizard")))

    def _allocate(self, section, label: str) -> None:
        """Move the row named ``label`` of a wizard step's transfer table to
        its allocated list (the row's arrow-up button)."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        def arrow(_driver):
            found = section.find_elements(
                By.XPATH,
                f".//tr[.//*[normalize-space()='{label}']]"
                "//*[contains(@class, 'fa-arrow-up')]",
            )
            allocated = section.find_elements(
                By.XPATH,
                f".//tr[.//*[normalize-space()='{label}']]"
                "//*[contains(@class, 'fa-arrow-down')]",
            )
            return found[0] if found else ("allocated" if allocated else False)

        button = WebDriverWait(self.driver, PAGE_TIMEOUT).until(
            arrow, message=f"{label} is not offered by the launch wizard"
        )
        if button != "allocated":
            button.click()

    def console_status(self, server_id: str) -> str:
        """Open the instance's Console tab and wait for the noVNC client in
        its frame to connect; the client's status line."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec
        from selenium.webdriver.support.ui import WebDriverWait

        wait = WebDriverWait(self.driver, PAGE_TIMEOUT)
        self.open(f"/project/instances/{server_id}/?tab=instance_details__console")
        wait.until(ec.frame_to_be_available_and_switch_to_it((By.TAG_NAME, "iframe")))
        try:

            def status(driver) -> str:
                element = driver.find_elements(By.ID, "status")
                return element[0].text if element else ""

            wait.until(
                lambda driver: status(driver).startswith("Connected"),
                message="noVNC in the console tab did not connect",
            )
            return status(self.driver)
        finally:
            self.driver.switch_to.default_content()
