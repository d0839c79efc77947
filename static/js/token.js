// The token page: copy the key, and make rotating (which breaks running bots) a deliberate act.

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

const rotate = document.querySelector(".token-rotate");
if (rotate) {
  rotate.addEventListener("submit", (event) => {
    if (!window.confirm("Make a new token? Bots using the current one will stop working.")) {
      event.preventDefault();
    }
  });
}
