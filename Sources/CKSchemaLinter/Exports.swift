// The layers below this one (docs/architecture.md), re-exported so that a file of a layer
// above needs to import only the layers directly below it.
@_exported import CKSchemaYAML
@_exported import CKSchemaCKDB
@_exported import CKSchemaCoreData
@_exported import CKSchemaPredicate
@_exported import CKSchemaSwift

/// The schema's index set, not Foundation's `IndexSet`: a name of this module shadows both imports.
typealias IndexSet = CKSchemaModel.IndexSet

/// CloudKit's predicate (CKSchemaPredicate), not Foundation's `Predicate` macro type.
typealias Predicate = CKSchemaPredicate.Predicate
