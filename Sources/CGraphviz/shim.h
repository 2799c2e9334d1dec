#ifndef MACHINE_VIZ_CGRAPHVIZ_SHIM_H
#define MACHINE_VIZ_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#endif
