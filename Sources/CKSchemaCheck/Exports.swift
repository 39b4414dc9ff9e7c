// The layers below this one (docs/architecture.md), re-exported so that a file of a layer
// above needs to import only the layers directly below it.
@_exported import CKSchemaCodegen
@_exported import CKSchemaMigrations
@_exported import CKSchemaScan

/// CloudKit's predicate (CKSchemaPredicate), not Foundation's `Predicate` macro type.
typealias Predicate = CKSchemaPredicate.Predicate
