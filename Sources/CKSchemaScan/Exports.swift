// The layer below, re-exported so that a file of this target imports only its own dependencies.
@_exported import CKSchemaConfig

/// CloudKit's predicate (CKSchemaPredicate), not Foundation's `Predicate` macro type.
typealias Predicate = CKSchemaPredicate.Predicate
