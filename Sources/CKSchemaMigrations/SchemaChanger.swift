import CKSchemaDiagnostics
import CKSchemaModel

/// Applies migration steps to a `Schema`, checking each against the schema it meets and
/// against what CloudKit allows. Replay (`MigrationFolder.replay`) and `Migrator` share it.
package enum SchemaChanger {
    /// Applies every step of `migration`; throws `InputError` at the first step that cannot apply.
    ///
    /// `adoptingFields`: a store's development schema may already hold a field that CloudKit's
    /// just-in-time schema added (`records import`); an `addField` with the same type and
    /// encryption then adopts it instead of failing. Replay never adopts.
    package static func apply(_ migration: Migration, to schema: inout Schema, adoptingFields: Bool = false) throws(InputError) {
        for step in migration.steps {
            try apply(step, to: &schema, file: migration.path, adoptingFields: adoptingFields)
        }
    }

    package static func apply(_ step: MigrationStep, to schema: inout Schema, file: String, adoptingFields: Bool = false) throws(InputError) {
        let context = StepContext(kind: step.kindName, location: step.location ?? SourceLocation(file: file, line: 1, column: 1), adoptingFields: adoptingFields)
        try step.action.apply(to: &schema, context)
    }
}
