import Foundation
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel
import CKSchemaYAML

/// Plan binding: a plan file read and held to the two schemas it is a plan of. Production's:
/// the plan format itself (its JSON, `stepsHash`) is Diff's, beside the rule set that computes
/// plans, and this is the one reading of a plan file that `promote --verify-plan`,
/// `promote --apply` (`StoreDeployer`) and `verify --plan` share.
extension PromotionPlan {
    /// Reads a plan file from disk (at most 64 MB).
    public static func load(path: String) throws(InputError) -> PromotionPlan {
        let data = try InputFile.read(path: path, limit: 64 * 1024 * 1024)
        return try decode(data, file: path)
    }

    /// A plan file bound to the two schemas it is a plan of (`bind(planAt:from:to:settings:)`).
    public struct Binding: Sendable {
        /// The plan as the file holds it.
        public var plan: PromotionPlan
        /// Why the plan must not be acted on (`CK393`, exit 1): its steps are not the steps
        /// its schemas give with the repository's settings. Empty when the plan is bound.
        public var refused: [Diagnostic]
    }

    /// Reads the plan file at `path` and binds it to `from` -> `to`: the one function
    /// `promote --verify-plan`, `promote --apply` (`StoreDeployer.apply`) and `verify --plan`
    /// ask, so a plan one of them refuses the others refuse with the same words.
    ///
    /// In order (docs/output.md, "The plan file"): the file is JSON and a ckschema plan
    /// (CK390), of this format version (CK391), well formed (CK390), computed from exactly
    /// these two schemas (CK392); then the plan is computed again from them with `settings`
    /// (ckschema.yaml's `promote:`, through `production(from:to:settings:)` as `promote
    /// --plan` computed it), and the file's steps must be exactly those and match its
    /// `stepsSha256` (CK393, naming the first step that differs).
    ///
    /// - Throws: `InputError` (exit 2) for CK390-CK392.
    /// - Returns: the plan, and (`refused`) the CK393 findings when its steps differ.
    public static func bind(planAt path: String, from: Schema, to: Schema, settings: RuleSettings) throws(InputError) -> Binding {
        let plan = try load(path: path)
        try plan.verify(from: from, to: to, file: path)
        let recomputed = production(from: from, to: to, settings: settings)
        return Binding(plan: plan, refused: plan.stepFindings(against: recomputed, file: path))
    }

    /// Findings (`CK393`, exit 1) when the plan's steps are not exactly the steps
    /// `recomputed` has (the plan the two schemas give now, with the same settings): steps
    /// edited, cut or added by hand after the plan was written, named by the first that
    /// differs. Empty when they agree. Asked only by `bind`, the one reading of a plan.
    func stepFindings(against recomputed: PromotionPlan, file: String) -> [Diagnostic] {
        let at = SourceLocation(file: file, line: 1, column: 1)
        let fix = "compute the plan again and review it: `ckschema promote --plan \(file)`; never edit a plan by hand"
        var found: [Diagnostic] = []
        // The file as the reviewer read it (every member of every step, `text` included, and
        // the summary); a plan computed here, never written, is its own form.
        let read = writtenForm ?? boundForm
        if let written = writtenStepsHash, written != read.hash {
            found.append(Diagnostic(rule: PromotionRules.planSteps,
                                    "'\(file)' was edited after it was written: its steps no longer match its stepsSha256 (\(short(written)) in the plan, \(short(read.hash)) for its steps and summary)",
                                    at: at, fix: fix))
        }
        let mine = steps, theirs = recomputed.steps
        let common = min(mine.count, theirs.count)
        if let i = (0..<common).first(where: { mine[$0] != theirs[$0] }) ?? (mine.count == theirs.count ? nil : common) {
            let what: String
            switch (i < mine.count ? mine[i] : nil, i < theirs.count ? theirs[i] : nil) {
            case (let a?, let b?): what = "step \(i + 1) is '\(a.change.description)' (\(a.changeClass.rawValue), \(a.code)), but the schemas give '\(b.change.description)' (\(b.changeClass.rawValue), \(b.code))"
            case (nil, let b?): what = "it has \(mine.count) step\(mine.count == 1 ? "" : "s") and the schemas give \(theirs.count); the first it lacks is step \(i + 1), '\(b.change.description)'"
            case (let a?, nil): what = "it has \(mine.count) steps and the schemas give \(theirs.count); step \(i + 1), '\(a.change.description)', is not a change between them"
            default: what = "its steps differ"
            }
            found.append(Diagnostic(rule: PromotionRules.planSteps, "'\(file)' does not hold the steps its schemas give: \(what)", at: at, fix: fix))
        } else if let what = Self.firstDifference(read, recomputed.boundForm) {
            // The steps decode alike, yet the file says something else to its reader: a
            // step's `text`, a member the decoder ignores, or the summary (issue 35 point 5).
            found.append(Diagnostic(rule: PromotionRules.planSteps, "'\(file)' does not hold the steps its schemas give: \(what)", at: at, fix: fix))
        }
        return found
    }

    /// Where a file's bound form first differs from the one its schemas give, in words; nil
    /// when they are the same.
    static func firstDifference(_ file: BoundForm, _ given: BoundForm) -> String? {
        guard file != given else { return nil }
        for (i, (a, b)) in zip(file.steps, given.steps).enumerated() where a != b {
            let text = b["change"]?["text"]?.stringValue ?? ""
            if let written = a["change"]?["text"], written != b["change"]?["text"] {
                let shown = written.stringValue.map { "'\(escaped(Diagnostic.clipped($0)))'" } ?? quoted(written)
                return "step \(i + 1) reads \(shown), but the schemas give '\(escaped(text))'"
            }
            return "step \(i + 1), '\(escaped(text))', differs from the step the schemas give in \(members(a, b).joined(separator: ", "))"
        }
        if file.steps.count != given.steps.count {
            return "it has \(file.steps.count) steps and the schemas give \(given.steps.count)"
        }
        return "its summary says \(counts(file.summary)), but the steps give \(counts(given.summary))"
    }

    /// `2 safe, 0 review, 1 forbidden` for a summary object, else the value itself.
    private static func counts(_ summary: JSONValue) -> String {
        let classes = ChangeClass.allCases.map(\.rawValue)
        guard let pairs = summary.objectValue, pairs.count == classes.count,
              case let numbers = classes.compactMap({ summary[$0]?.int64Value }), numbers.count == classes.count else { return quoted(summary) }
        return zip(numbers, classes).map { "\($0) \($1)" }.joined(separator: ", ")
    }

    /// The members (`reason`, `change.after`, `note`) in which two step objects differ, by name.
    private static func members(_ a: JSONValue, _ b: JSONValue, prefix: String = "") -> [String] {
        guard let x = a.objectValue, let y = b.objectValue else { return [prefix.isEmpty ? "a value" : "'\(prefix)'"] }
        var keys: [String] = []
        for (k, _) in x + y where !keys.contains(k) { keys.append(k) }
        var out: [String] = []
        for k in keys.sorted() {
            let name = prefix.isEmpty ? k : prefix + "." + k
            let u = a[k], v = b[k]
            guard u != v else { continue }
            if let u, let v, u.objectValue != nil, v.objectValue != nil { out += members(u, v, prefix: name); continue }
            out.append("'\(escaped(Diagnostic.clipped(name)))'")
        }
        return out.isEmpty ? ["a value"] : out
    }

    /// A value a file holds, compact and clipped, for a message.
    private static func quoted(_ v: JSONValue) -> String { escaped(Diagnostic.clipped(v.rendered())) }

    /// A file's text in a one-line message (control characters escaped, as cktool's output is).
    private static func escaped(_ s: String) -> String { ControlCharacters.escaped(s, newline: " / ") }

    /// Throws `InputError` (`CK392`) unless the plan was computed from exactly these
    /// schemas, saying which of the two has changed.
    public func verify(from: Schema, to: Schema, file: String) throws(InputError) {
        let nowFrom = from.canonicalHash, nowTo = to.canonicalHash
        let fromStale = nowFrom != fromHash, toStale = nowTo != toHash
        guard fromStale || toStale else { return }
        let which: String
        switch (fromStale, toStale) {
        case (true, true): which = "both schemas have changed since the plan was computed"
        case (true, false): which = "the production (from) schema has changed since the plan was computed (sha256 \(short(fromHash)) in the plan, \(short(nowFrom)) now)"
        default: which = "the development (to) schema has changed since the plan was computed (sha256 \(short(toHash)) in the plan, \(short(nowTo)) now)"
        }
        throw InputError(Diagnostic(rule: PromotionRules.planStale, "'\(file)' is stale: \(which)", at: SourceLocation(file: file, line: 1, column: 1),
                                fix: "review and compute the plan again: `ckschema promote --plan \(file)`"))
    }

    private func short(_ hash: String) -> String { String(hash.prefix(12)) }
}
