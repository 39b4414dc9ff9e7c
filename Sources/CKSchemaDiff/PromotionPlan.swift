import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaYAML

/// A promotion plan: every change from production to development, in diff order, each
/// with its class, reason, CloudKit source and fix, and the SHA-256 of the canonical
/// form of both schemas it was computed from.
///
/// As a file (`promote --plan plan.json`) it is JSON with a `"format": "ckschema-plan"`,
/// `"version": 1` header; `docs/output.md` documents it.
public struct PromotionPlan: Sendable, Hashable {
    /// The `format` value of a plan file.
    public static let format = "ckschema-plan"
    /// The plan file format version this tool writes and reads. Version 3 binds the whole
    /// steps array as the file holds it (each step's `text` included) and the `summary`
    /// (`stepsSha256`, `boundForm`); version 2 bound the steps as they decode, so an edited
    /// `text` or `summary` went unseen (issue 35); version 1 bound only the two schemas.
    public static let version = 3

    /// `canonicalHash` of the schema the plan starts from (production).
    public var fromHash: String
    /// `canonicalHash` of the schema the plan goes to (development).
    public var toHash: String
    public var steps: [PromotionStep]
    /// The `stepsSha256` a plan file was read with (nil for a plan computed here). It differs
    /// from `writtenForm`'s hash when the file's steps or summary were edited after it was written.
    public var writtenStepsHash: String?
    /// The steps and summary exactly as a plan file holds them (nil for a plan computed
    /// here): what the reviewer read, bound by `PromotionPlan.bind` to what the schemas give.
    public var writtenForm: BoundForm?

    /// Makes a plan from steps that are already in order.
    public init(fromHash: String, toHash: String, steps: [PromotionStep]) {
        self.fromHash = fromHash
        self.toHash = toHash
        self.steps = steps
    }

    /// The production verdict on `from` -> `to`: the plan classed by CloudKit's production
    /// rules, configured by the repository's `promote:` settings. `promote --check`,
    /// `promote --plan`, `--verify-plan`, `--apply`, `migrate new` and `migrate apply --env
    /// production` all ask this one function, so they cannot disagree.
    public static func production(from: Schema, to: Schema, settings: RuleSettings, hashing: Bool = false) -> PromotionPlan {
        compute(from: from, to: to, hashing: hashing).configured(by: settings)
    }

    /// Computes the plan that takes `from` to `to`.
    ///
    /// - Parameter hashing: compute both schemas' `canonicalHash` (needed to write or
    ///   verify a plan file). Without it `fromHash` and `toHash` are empty: a check that
    ///   writes no file saves emitting both schemas, most of a plan's own cost.
    public static func compute(from: Schema, to: Schema, hashing: Bool = true) -> PromotionPlan {
        let diff = SchemaDiff.compute(from: from, to: to)
        return compute(diff: diff, from: from, to: to, hashing: hashing)
    }

    /// Classifies the changes of a diff already computed from `from` to `to`.
    public static func compute(diff: SchemaDiff, from: Schema, to: Schema, hashing: Bool = true) -> PromotionPlan {
        let context = PromotionContext(from: from, to: to)
        let steps = diff.changes.map { ProductionRules.classify($0, in: context) }
        guard hashing else { return PromotionPlan(fromHash: "", toHash: "", steps: steps) }
        let hashes = Concurrently.both({ from.canonicalHash }, { to.canonicalHash })
        return PromotionPlan(fromHash: hashes.0, toHash: hashes.1, steps: steps)
    }

    /// Two plans are equal when their hashes and steps are; how a file was read is not part of it.
    public static func == (a: PromotionPlan, b: PromotionPlan) -> Bool {
        a.fromHash == b.fromHash && a.toHash == b.toHash && a.steps == b.steps
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fromHash)
        hasher.combine(toHash)
        hasher.combine(steps)
    }

    /// The number of steps of a class.
    public func count(_ changeClass: ChangeClass) -> Int { steps.reduce(0) { $0 + ($1.changeClass == changeClass ? 1 : 0) } }

    /// The highest class of any step; nil for an empty plan.
    public var highestClass: ChangeClass? { steps.map(\.changeClass).max() }

    /// True when some step is at or above `changeClass` (`--fail-on`).
    public func fails(on changeClass: ChangeClass) -> Bool { steps.contains { $0.changeClass >= changeClass } }

    /// The steps at or above `minimum` as diagnostics, in plan order: one per field change,
    /// so two index kinds added to one field are one diagnostic, not two.
    public func diagnostics(minimum: ChangeClass = .safe) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var group: [PromotionStep] = []
        func flush() {
            guard let first = group.first else { return }
            if group.count == 1 { out.append(first.diagnostic) } else { out.append(Self.merged(group)) }
            group.removeAll()
        }
        for step in steps where step.changeClass >= minimum {
            if let last = group.last, !Self.sameFieldChange(last, step) { flush() }
            group.append(step)
        }
        flush()
        return out
    }

    /// Index steps of one rule on one field, worded alike but for the index kind.
    static func sameFieldChange(_ a: PromotionStep, _ b: PromotionStep) -> Bool {
        guard a.code == b.code, a.changeClass == b.changeClass, a.change.kind == b.change.kind,
              a.change.kind == .addIndex || a.change.kind == .removeIndex,
              a.change.recordType == b.change.recordType, a.change.field == b.change.field,
              let ka = a.change.index, let kb = b.change.index else { return false }
        return a.fix == b.fix && kindless(a.reason, ka) == kindless(b.reason, kb)
    }

    private static func kindless(_ reason: String, _ kind: IndexKind) -> String {
        reason.replacingOccurrences(of: "a \(kind.rawValue) index", with: "\u{0}")
            .replacingOccurrences(of: "the \(kind.rawValue) index", with: "\u{0}")
    }

    /// One diagnostic for the index steps of one field: "adds queryable and sortable indexes".
    static func merged(_ group: [PromotionStep]) -> Diagnostic {
        let first = group[0]
        let kinds = group.compactMap(\.change.index).map(\.rawValue)
        let list = kinds.dropLast().joined(separator: ", ") + " and " + kinds.last!
        let kind = first.change.index!.rawValue
        let reason = first.reason.replacingOccurrences(of: "a \(kind) index", with: "\(list) indexes")
            .replacingOccurrences(of: "the \(kind) index", with: "the \(list) indexes")
        var d = first.diagnostic
        d.message = reason
        return d
    }

    /// The plan as the repository's `promote:` settings class it: a disabled rule's steps
    /// become safe (the change is still deployed, no one need review it), and a severity
    /// maps to the class that reports with it (note: safe, warning: review, error:
    /// forbidden). Lowering a forbidden rule does not make production accept the change.
    ///
    /// A forbidden step stays forbidden whatever the settings say: production refuses the
    /// change, so no setting can let a deploy or a production migration make it
    /// (`Configuration.load` refuses such a setting; docs/promotion.md).
    public func configured(by settings: RuleSettings) -> PromotionPlan {
        guard !settings.disabled.isEmpty || !settings.severities.isEmpty else { return self }
        var plan = self
        for i in plan.steps.indices where plan.steps[i].changeClass != .forbidden {
            let code = plan.steps[i].code
            if settings.disabled.contains(code) {
                plan.steps[i].changeClass = .safe
            } else if let severity = settings.severities[code] {
                plan.steps[i].changeClass = ChangeClass(severity: severity)
            }
        }
        return plan
    }
}

extension ChangeClass {
    /// The class whose steps report with `severity`.
    public init(severity: Severity) {
        switch severity {
        case .note: self = .safe
        case .warning: self = .review
        case .error: self = .forbidden
        }
    }
}

// MARK: - The plan file

extension PromotionPlan: Codable {
    private enum CodingKeys: String, CodingKey { case format, version, from, to, summary, steps, stepsSha256 }
    private struct SchemaRef: Codable { var sha256: String }
    private struct Summary: Codable { var safe: Int; var review: Int; var forbidden: Int }

    /// Writes the plan file's JSON object.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.format, forKey: .format)
        try c.encode(Self.version, forKey: .version)
        try c.encode(SchemaRef(sha256: fromHash), forKey: .from)
        try c.encode(SchemaRef(sha256: toHash), forKey: .to)
        try c.encode(summary, forKey: .summary)
        try c.encode(steps, forKey: .steps)
        try c.encode(stepsHash, forKey: .stepsSha256)
    }

    /// Reads a plan file's JSON object (header checked by `decode(_:file:)`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            fromHash: try c.decode(SchemaRef.self, forKey: .from).sha256,
            toHash: try c.decode(SchemaRef.self, forKey: .to).sha256,
            steps: try c.decode([PromotionStep].self, forKey: .steps))
        writtenStepsHash = try c.decode(String.self, forKey: .stepsSha256)
    }

    /// SHA-256 of the plan as it binds a deploy (`boundForm`): the whole steps array, each
    /// step's change (its `text` included), class, code, reason, source and fix, and the
    /// summary; the source locations are left out (a comment added to a schema moves lines
    /// but changes no step). It is written into the plan file as `stepsSha256`.
    public var stepsHash: String { boundForm.hash }

    /// What a plan file binds, in its canonical form (docs/output.md, "The plan file"): the
    /// `steps` array and the `summary` as JSON values, every member a reviewer reads, each
    /// change without `location` and `fromLocation`. Its `hash` is `stepsSha256`: SHA-256 of
    /// `{"steps":[...],"summary":{...}}` written compact with keys sorted by the one writer.
    public struct BoundForm: Sendable, Hashable {
        /// Each step's JSON object, locations left out.
        public var steps: [JSONValue]
        /// The summary's JSON object (or whatever value the file holds there).
        public var summary: JSONValue

        /// The canonical form of a file's `steps` and `summary` values.
        init(steps: JSONValue?, summary: JSONValue?) {
            // Keys sorted here, so that two steps compare member for member whatever order
            // the file or the encoder wrote them in.
            self.steps = (steps?.arrayValue ?? []).map { Self.locationless($0).sortedKeys() }
            self.summary = (summary ?? .null).sortedKeys()
        }

        /// SHA-256 (lower-case hex) of the compact, key-sorted `{"steps":...,"summary":...}`.
        public var hash: String {
            var bytes: [UInt8] = []
            JSONValue.object([("steps", .array(steps)), ("summary", summary)]).write(to: &bytes)
            var hasher = SHA256()
            hasher.update(Data(bytes))
            return SHA256.hex(hasher.finalize())
        }

        public static func == (a: BoundForm, b: BoundForm) -> Bool { a.hash == b.hash }
        public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        /// A step without its change's `location` and `fromLocation`.
        private static func locationless(_ step: JSONValue) -> JSONValue {
            guard case .object(let pairs) = step else { return step }
            return .object(pairs.map { key, value in
                guard key == "change", case .object(let change) = value else { return (key, value) }
                return (key, .object(change.filter { $0.0 != "location" && $0.0 != "fromLocation" }))
            })
        }
    }

    /// This plan's own `BoundForm`: its steps and summary as `encode(to:)` writes them.
    public var boundForm: BoundForm {
        guard let data = try? JSONEncoder().encode(BoundSteps(steps: steps, summary: summary)),
              let value = (data.withUnsafeBytes { buf in try? JSONValue.parse(buf) }) else { preconditionFailure("a plan always encodes") }
        return BoundForm(steps: value["steps"], summary: value["summary"])
    }

    private struct BoundSteps: Encodable { var steps: [PromotionStep]; var summary: Summary }

    private var summary: Summary { Summary(safe: count(.safe), review: count(.review), forbidden: count(.forbidden)) }

    /// The plan file's bytes: pretty-printed JSON with sorted keys, ending in a newline.
    public var jsonData: Data {
        guard let data = JSONValue.prettyData(self) else { preconditionFailure("a plan always encodes") }
        return data
    }

    /// Reads a plan file's bytes, parsed once (`JSONValue.parse`, numbers bounded). Throws
    /// `InputError` saying whether the file is not JSON, has a number no plan member can hold,
    /// is not a ckschema plan, is from another format version, or is malformed.
    public static func decode(_ data: Data, file: String) throws(InputError) -> PromotionPlan {
        let at = SourceLocation(file: file, line: 1, column: 1)
        let whole: JSONValue
        do throws(JSONValue.ParseError) {
            whole = try JSONValue.parse(data, boundedNumbers: true)
        } catch {
            // An integer beyond 64 bits or a number beyond a double's range is named with its
            // member and place: Foundation's reader refused the whole file or rounded it (issue 35 point 10).
            if let number = error.number {
                let place = error.memberPath.isEmpty ? "the plan" : "\"\(ControlCharacters.escaped(Diagnostic.clipped(error.memberPath)))\""
                throw InputError(Diagnostic(rule: PromotionRules.planUnreadable,
                                            "'\(file)' has a number out of range at \(place): \(Diagnostic.clipped(number)) (a plan's numbers are integers that fit in 64 bits)",
                                            at: location(ofByte: error.offset, in: data, file: file),
                                            fix: "compute the plan again: `ckschema promote --plan \(file)`"))
            }
            throw InputError(Diagnostic(rule: PromotionRules.planUnreadable, "'\(file)' is not JSON, so it is not a ckschema plan", at: at,
                                    fix: "write the plan with `ckschema promote --plan \(file)`"))
        }
        guard let format = whole["format"]?.stringValue, format == Self.format else {
            throw InputError(Diagnostic(rule: PromotionRules.planUnreadable, "'\(file)' is JSON but not a ckschema plan (it has no \"format\": \"\(Self.format)\")", at: at,
                                    fix: "write the plan with `ckschema promote --plan \(file)`"))
        }
        let version = whole["version"]
        guard let number = version?.int64Value, number == Int64(Self.version) else {
            // A version written as a string (`"version": "2"`) is named as what it is: "is
            // version 2 ...; reads version 2" said nothing (issue 35).
            let message: String
            switch version {
            case nil: message = "'\(file)' has no \"version\"; this ckschema reads version \(Self.version) of the plan format"
            case let old? where old.int64Value == 2:
                message = "'\(file)' is version 2 of the plan format, whose stepsSha256 binds neither each step's text nor the summary; this ckschema reads version \(Self.version), which binds every member a reviewer reads"
            case .string(let text)?:
                message = "'\(file)' has \"version\": \(JSONValue.string(Diagnostic.clipped(text)).rendered(pretty: false)), a string; this ckschema reads the number \(Self.version) (\"version\": \(Self.version)) of the plan format"
            case let other?:
                message = "'\(file)' is version \(Diagnostic.clipped(other.rendered())) of the plan format; this ckschema reads version \(Self.version)"
            }
            throw InputError(Diagnostic(rule: PromotionRules.planVersion, message, at: at,
                                    fix: "compute the plan again with this version of ckschema: `ckschema promote --plan \(file)`"))
        }
        do {
            var plan = try whole.decode(PromotionPlan.self)
            // What the reviewer read, member for member: `text` and `summary` are not part of
            // the decoded plan (both follow from the steps), so they are bound as written.
            plan.writtenForm = BoundForm(steps: whole["steps"], summary: whole["summary"])
            return plan
        } catch {
            throw InputError(Diagnostic(rule: PromotionRules.planUnreadable, "'\(file)' is a malformed ckschema plan: \(describe(error))", at: at,
                                    fix: "compute the plan again: `ckschema promote --plan \(file)`"))
        }
    }

    /// The 1-based line and column (UTF-8 bytes) of byte `offset` of `data`.
    private static func location(ofByte offset: Int, in data: Data, file: String) -> SourceLocation {
        var line = 1, lineStart = 0
        for (k, byte) in data.prefix(offset).enumerated() where byte == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return SourceLocation(file: file, line: line, column: offset - lineStart + 1)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "missing key '\(key.stringValue)'"
        case .typeMismatch(_, let ctx)?, .valueNotFound(_, let ctx)?, .dataCorrupted(let ctx)?:
            let path = ctx.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? ctx.debugDescription : "bad value at '\(path)'"
        default: return "\(error)"
        }
    }
}
