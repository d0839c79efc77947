// Calls to the site's REST API from a page: JSON both ways, the session's cookies, and an error in
// the API's shape ({code, reason}) thrown as an Error with its ``code`` and HTTP ``status``.

/**
 * ``method`` other than GET sends Django's CSRF token (from the page's log-out form, base.html),
 * as a session's writes need.
 */
export async function apiJson(url, { method = "GET" } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value;
    if (token) headers["X-CSRFToken"] = token;
  }
  const response = await fetch(url, { method, credentials: "same-origin", headers });
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  if (!response.ok) {
    const error = new Error(body?.reason || `${response.status} ${response.statusText}`);
    error.code = body?.code;
    error.status = response.status;
    throw error;
  }
  return body;
}
