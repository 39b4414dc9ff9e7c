#ifndef CKSCHEMA_CYAML_SHIM_H
#define CKSCHEMA_CYAML_SHIM_H
#include <yaml.h>
#endif
