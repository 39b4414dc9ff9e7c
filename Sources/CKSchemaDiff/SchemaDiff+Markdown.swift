import CKSchemaDiagnostics
import CKSchemaModel

/// `ckschema diff --format markdown`: a summary line and one table row per change.
extension SchemaDiff {
    /// `**ckschema diff**: 3 changes` and a table (location, record type, change).
    public var markdown: String {
        var out = "**ckschema diff**: " + (changes.isEmpty ? "no changes" : "\(changes.count) change" + (changes.count == 1 ? "" : "s")) + "\n"
        guard !changes.isEmpty else { return out }
        out += "\n| Location | Record type | Change |\n|---|---|---|\n"
        for c in changes {
            let place = (c.origin.location ?? c.fromOrigin.location).map { "\($0.file):\($0.line):\($0.column)" } ?? ""
            out += "| " + [Markdown.code(place), Markdown.cell(c.recordType ?? "(container)"), Markdown.code(c.description)].joined(separator: " | ") + " |\n"
        }
        return out
    }
}
