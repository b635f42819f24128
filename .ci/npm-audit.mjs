#!/usr/bin/env node
// CI's dependency audit (issue 14): `npm audit` of the production dependencies fails the build on a
// high or critical advisory. Dev-only packages (test runner, compiler, benchmark and browser
// drivers, buf) never run in production, so their advisories are listed but do not block a merge:
// a ReDoS in a test tool's argument parser is no production risk, and would otherwise stop every
// change until upstream ships a fix.
//
// The advisory service is a POST endpoint of the registry. Where the registry is reached through a
// read-only mirror that refuses it (405) or is unreachable, nothing can be audited: that is printed
// as a warning and does not fail the build, unless NPM_AUDIT_REQUIRED=true (set it where the
// service is reachable, so an outage cannot pass silently). Any other failure of npm fails the build.
import { spawnSync } from "node:child_process";

const BLOCKING = ["high", "critical"];
const required = process.env.NPM_AUDIT_REQUIRED === "true";

function audit(scope) {
  const args = ["audit", "--json", ...(scope === "production" ? ["--omit=dev"] : [])];
  const run = spawnSync("npm", args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  return { report, stderr: run.stderr ?? "", error: run.error };
}

/** The service could not be asked (refused by a mirror, unreachable), as opposed to npm failing otherwise. */
function unreachable(report) {
  if (!report || report.metadata) return false;
  const network = ["ENOTFOUND", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN", "EHOSTUNREACH"];
  return (typeof report.statusCode === "number" && report.statusCode >= 400) || network.includes(report.code) || network.includes(report.error?.code);
}

/** `name (severity): title` for each vulnerable package at one of `levels`. */
function findings(report, levels) {
  return Object.values(report.vulnerabilities ?? {})
    .filter((v) => levels.includes(v.severity))
    .map((v) => {
      const titles = (v.via ?? []).filter((via) => typeof via === "object").map((via) => via.title);
      return `  ${v.name} (${v.severity})${titles.length ? `: ${[...new Set(titles)].join("; ")}` : ` via ${(v.via ?? []).join(", ")}`}`;
    });
}

let failed = false;
for (const scope of ["production", "all"]) {
  const { report, stderr, error } = audit(scope);
  if (unreachable(report)) {
    const why = report.message ?? report.code ?? "unreachable";
    console.log(`npm audit (${scope}): the advisory service could not be reached (${why}); dependencies NOT audited.`);
    if (required) failed = true;
    // The second scope would only ask the same service again.
    break;
  }
  if (!report?.metadata) {
    console.error(`npm audit (${scope}) failed: ${error?.message ?? stderr.trim() ?? "no report"}`);
    failed = true;
    break;
  }
  const counts = report.metadata.vulnerabilities;
  console.log(
    `npm audit (${scope}): ${counts.critical} critical, ${counts.high} high, ${counts.moderate} moderate, ${counts.low} low in ${report.metadata.dependencies?.total ?? "?"} packages`,
  );
  const listed = findings(report, BLOCKING);
  if (listed.length > 0) console.log(listed.join("\n"));
  if (scope === "production" && listed.length > 0) failed = true;
}
if (failed) console.error("npm audit: failing the build (production dependencies with a high or critical advisory, or no audit where one is required)");
process.exit(failed ? 1 : 0);
