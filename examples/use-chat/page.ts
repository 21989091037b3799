/** The page: an empty root for React and the bundled script (`client/main.ts`). */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>rx-advisors × useChat</title>
    <link rel="stylesheet" href="/style.css" />
  </head>
  <body>
    <h1>rx-advisors × useChat</h1>
    <div id="root"></div>
    <script type="module" src="/app.js"></script>
  </body>
</html>
`;

/** The page's styles. */
export const PAGE_CSS = `body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
.message { margin: 0.75rem 0; padding: 0.5rem 0.75rem; border-radius: 0.5rem; }
.message.user { background: #eef3ff; }
.message.assistant { background: #f6f6f6; }
.part { margin: 0.25rem 0; }
.part.step-start { border: 0; border-top: 1px dashed #ccc; }
.part.tool { font-size: 13px; display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
.part.tool .state { color: #666; }
.part.tool .output.error, .part.tool .output.denied, .error { color: #a00; }
.part.data-status { font-size: 12px; color: #666; }
.part.data-agent-progress { font-size: 13px; border-left: 3px solid #99b; padding-left: 0.5rem; display: flex; gap: 0.5rem; }
.part.data-agent-progress .agent, .part.data-agent-progress .tools { color: #557; font-weight: 600; }
.meta { font-size: 12px; color: #888; }
form { display: flex; gap: 0.5rem; }
form input { flex: 1; padding: 0.4rem; }
`;
