// axe-core (pinned in package.json) in Debian's Chromium, driven by puppeteer-core, over
// each URL given: node axe.js CHROMIUM URL... prints, as JSON, each page's violations at
// the WCAG 2.0 and 2.1 A and AA tags. web/axe_test.go runs it over every board page.
const puppeteer = require("puppeteer-core");
const fs = require("fs");
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

(async () => {
  const [chromium, ...urls] = process.argv.slice(2);
  const browser = await puppeteer.launch({
    executablePath: chromium, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const out = [];
  try {
    for (const url of urls) {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: "load" });
      await page.evaluate(axeSource);
      const r = await page.evaluate(() => axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      }));
      out.push({
        url, passes: r.passes.length, incomplete: r.incomplete.length,
        violations: r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.map(n => n.target.join(" ")) })),
      });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
})().catch(e => { console.error(e); process.exit(1); });
