// zlib (Debian's zlib1g-dev), imported into Swift as the CZlib module. Only the adapter host's screenshots use it:
// the desktop bridge writes the app's X window as a PNG (Screenshot.png).
#include <zlib.h>
