#ifndef VMSIM_CCAIRO_SHIM_H
#define VMSIM_CCAIRO_SHIM_H

/*
 * Cairo (2D drawing: raster tiles and the sprite atlas). The PNG encoder writes through a
 * callback; this shim collects the bytes in a growing buffer so Swift passes no C closure.
 */

#include <stdlib.h>
#include <string.h>
#include <cairo.h>

/* Bytes Cairo wrote; free `bytes` with vmsim_png_buffer_free. */
struct vmsim_png_buffer {
  unsigned char *bytes;
  size_t length;
  size_t capacity;
  int failed;
};

static inline cairo_status_t vmsim_png_buffer_write(void *closure, const unsigned char *data, unsigned int length) {
  struct vmsim_png_buffer *buffer = (struct vmsim_png_buffer *)closure;
  if (buffer->length + length > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->length + length) capacity *= 2;
    unsigned char *grown = (unsigned char *)realloc(buffer->bytes, capacity);
    if (grown == NULL) { buffer->failed = 1; return CAIRO_STATUS_WRITE_ERROR; }
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, data, length);
  buffer->length += length;
  return CAIRO_STATUS_SUCCESS;
}

/* Encodes surface as PNG into *out (zeroed first). Returns CAIRO_STATUS_SUCCESS or an error. */
static inline cairo_status_t vmsim_png_encode(cairo_surface_t *surface, struct vmsim_png_buffer *out) {
  out->bytes = NULL; out->length = 0; out->capacity = 0; out->failed = 0;
  return cairo_surface_write_to_png_stream(surface, vmsim_png_buffer_write, out);
}

static inline void vmsim_png_buffer_free(struct vmsim_png_buffer *buffer) {
  free(buffer->bytes);
  buffer->bytes = NULL; buffer->length = 0; buffer->capacity = 0;
}

#endif
