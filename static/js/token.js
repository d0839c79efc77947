// The token page: copy the new key, and make revoking (which cuts off running bots) a deliberate act.

for (const button of document.querySelectorAll("[data-copy-target]")) {
  button.addEventListener("click", async () => {
    const input = document.getElementById(button.dataset.copyTarget);
    input.select();
    try {
      // Needs a secure context; over plain http the selection above lets the user copy by hand.
      await navigator.clipboard.writeText(input.value);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Selected — press Ctrl+C";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  });
}

// Revoking breaks every bot that uses the token, at once: ask first.
for (const form of document.querySelectorAll(".token-list form")) {
  form.addEventListener("submit", (event) => {
    const prefix = form.closest("[data-prefix]")?.dataset.prefix ?? "";
    if (!window.confirm(`Revoke token ${prefix}…? Bots using it are disconnected and refused from now on.`)) {
      event.preventDefault();
    }
  });
}
