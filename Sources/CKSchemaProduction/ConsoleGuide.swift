import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel
import Foundation

/// The one step that stays human: CloudKit Console's "Deploy Schema Changes". Apple gives no
/// API for it (`cktool import-schema --environment production` is refused: "endpoint not
/// applicable in the environment 'production'"), so `promote --format markdown` and the
/// Action's job summary give the click path and the changes the dialog lists, in the
/// Console's terms (Record Types, Fields, Indexes, Security Roles; field types as the
/// Console's type menu names them), for the person deploying to compare line by line.
///
/// The click path is Apple's ("Deploying an iCloud Container's Schema": sign in to CloudKit
/// Console, CloudKit Database, choose the container, Deploy Schema Changes, Deploy).
public enum ConsoleGuide {
    /// The Console's name of a field type, from the type as a plan spells it (`list<string>`).
    public static func consoleType(_ spelled: String) -> String {
        if spelled.hasPrefix("list<"), spelled.hasSuffix(">") {
            return "List<" + consoleType(String(spelled.dropFirst(5).dropLast())) + ">"
        }
        switch spelled {
        case "string": return "String"
        case "int64": return "Int(64)"
        case "double": return "Double"
        case "bytes": return "Bytes"
        case "timestamp": return "Date/Time"
        case "location": return "Location"
        case "reference": return "Reference"
        case "asset": return "Asset"
        case "number": return "Number"
        default: return spelled
        }
    }

    /// The rows of the dialog for one change, as Markdown: the section each is listed under
    /// and what it says (a new field's indexes are rows of their own, as the Console keeps
    /// indexes apart); empty for a change the dialog does not show (zones, declared queries,
    /// deprecation, descriptions: ckschema's own, not part of CloudKit's schema).
    public static func rows(_ c: SchemaChange) -> [(section: String, text: String)] {
        let type = Markdown.code(c.recordType ?? "")
        let field = Markdown.code(c.fieldPath)
        func index(_ kind: String) -> String { "\(field): new \(kind.uppercased()) index" }
        switch c.kind {
        case .addRecordType: return [("Record Types", "\(type): new record type")]
        case .addField:
            let after = c.after ?? ""
            let words = after.split(separator: " ").map(String.init)
            var text = "\(field): new field, \(Markdown.code(consoleType(words.first ?? "")))"
            if words.contains("encrypted") { text += ", Encrypted" }
            var out = [("Fields", text)]
            if let open = after.firstIndex(of: "["), let close = after.lastIndex(of: "]"), open < close {
                let kinds = after[after.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                out += kinds.filter { IndexKind(rawValue: $0) != nil }.map { ("Indexes", index($0)) }
            }
            return out
        case .addIndex: return [("Indexes", index(c.index?.rawValue ?? ""))]
        case .removeIndex: return [("Indexes", "\(field): \(c.index.map { $0.rawValue.uppercased() } ?? "") index removed")]
        case .addRole: return [("Security Roles", "\(Markdown.code(c.role ?? "")): new security role")]
        case .addGrant, .changeGrant, .removeGrant:
            let now = c.kind == .removeGrant ? "none" : (c.after ?? "")
            return [("Security Roles", "\(type), role \(Markdown.code(c.role ?? "")): permissions \(Markdown.cell(now))")]
        case .changeFieldType, .removeField, .removeRecordType, .encryptField, .decryptField, .removeRole:
            return [("Refused", "\(Markdown.code(c.description)) (production refuses it)")]
        default: return []
        }
    }

    /// The Markdown section: the click path, then the changes as the dialog lists them.
    public static func markdown(_ plan: PromotionPlan, container: String? = nil, planFile: String? = nil) -> String {
        var out = "\n### Deploy in CloudKit Console\n\n"
        if plan.fails(on: .forbidden) {
            out += "**Do not deploy**: the plan has \(plan.count(.forbidden)) change(s) production refuses. Fix them first (`ckschema promote --check`).\n"
            return out
        }
        let listed = plan.steps.flatMap { Self.rows($0.change) }
        guard !listed.isEmpty else { return out + "Nothing to deploy: production already has every change the Console would list.\n" }
        let where_ = container.map { " " + Markdown.code($0) } ?? " your app's container"
        out += """
            1. Sign in to CloudKit Console (icloud.developer.apple.com) with an account that may edit production.
            2. Open **CloudKit Database** and choose\(where_) at the top.
            3. With the **Development** environment selected, click **Deploy Schema Changes…**.
            4. Compare the dialog's list with the table below, line by line; click **Deploy** only when they agree.
            5. Then prove it: `ckschema verify --env production\(planFile.map { " --plan " + ControlCharacters.escaped($0).replacingOccurrences(of: "`", with: "'") } ?? "")`.

            The dialog should list \(listed.count) change\(listed.count == 1 ? "" : "s"):

            | Console section | What it lists |
            |---|---|

            """
        for r in listed { out += "| \(r.section) | \(r.text) |\n" }
        let hidden = plan.steps.filter { Self.rows($0.change).isEmpty }.count
        if hidden > 0 {
            out += "\n\(hidden) change\(hidden == 1 ? " is" : "s are") ckschema's own (zones, queries, deprecation, descriptions) and not in the dialog.\n"
        }
        return out
    }
}
