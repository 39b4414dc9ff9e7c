/// CKSchema: the library users import. It is the one target that re-exports: every layer
/// (docs/architecture.md) is a SwiftPM target that imports what it uses and re-exports nothing.
@_exported import CKSchemaModel
@_exported import CKSchemaDiagnostics
@_exported import CKSchemaWire
@_exported import CKSchemaCKDB
@_exported import CKSchemaCoreData
@_exported import CKSchemaPredicate
@_exported import CKSchemaSwift
@_exported import CKSchemaYAML
@_exported import CKSchemaCKTool
@_exported import CKSchemaCodegen
@_exported import CKSchemaDiff
@_exported import CKSchemaLinter
@_exported import CKSchemaRecords
@_exported import CKSchemaStore
@_exported import CKSchemaConfig
@_exported import CKSchemaRuntime
@_exported import CKSchemaScan
@_exported import CKSchemaMigrations
@_exported import CKSchemaTesting
@_exported import CKSchemaProduction
@_exported import CKSchemaCheck
