// libyaml (Debian's libyaml-dev), imported into Swift as the CYAML module. Only TraitConfig's YAMLDocument uses it:
// the config and device-profile reader, without Foundation (see docs/measurements.md, "Memory").
#include <yaml.h>
