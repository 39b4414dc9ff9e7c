import CKSchema
print("ckschema")
