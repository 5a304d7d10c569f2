// OpenSSL's libcrypto, for SHA-256 only (`SHA256Stream`): its EVP digest interface uses the CPU's
// SHA extensions where they exist (about 1.5 GB/s here, five times a portable implementation)
// and hashes data whole or as it arrives in pieces.
#include <openssl/evp.h>
