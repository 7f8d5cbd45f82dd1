/* Image copies as compute dispatches (terakan_meta_copy.cpp): what the copy commands of
 * terakan_cmd_buffer.cpp hand over when a tiled image (colour, depth or stencil plane) takes
 * part. */
#pragma once

#include "terakan_private.h"

/* One aspect of an image-to-image region (`src_aspect` of the source onto `dst_aspect` of the
 * destination) by the copy shader. False, with nothing recorded, when the shader path does not
 * apply (multisampled, both levels linear, elements of different sizes or a size a UINT view
 * cannot hold, TERAKAN_DEBUG=dmacopies): the caller copies by CP DMA. True when recorded, or
 * when recording failed (the command buffer's error is set then). */
bool terakan_meta_copy_image(terakan_cmd_buffer *cmd, terakan_image *src, terakan_image *dst,
                             const VkImageCopy2 &region, VkImageAspectFlags src_aspect, VkImageAspectFlags dst_aspect);

/* One aspect of an image-to-image region between multisampled images, as draws that shade
 * every sample (terakan_meta_copy_msaa.cpp). Always true: recorded, or refused with the
 * command buffer's error set (no FMASK, sample counts, aspects or formats that differ). */
bool terakan_meta_copy_multisampled(terakan_cmd_buffer *cmd, terakan_image *src, terakan_image *dst,
                                    const VkImageCopy2 &region, VkImageAspectFlags src_aspect,
                                    VkImageAspectFlags dst_aspect);

/* The unsigned integer format whose texel is `bytes` big (R8, R16, R32, R32G32, R32G32B32A32
 * UINT), through which copies move bits; nullptr for other sizes. */
const terakan_format *terakan_copy_element_format(unsigned bytes);

/* The same for one buffer <-> image region (`to_image`: buffer to image). */
bool terakan_meta_copy_buffer_image(terakan_cmd_buffer *cmd, terakan_buffer *buffer, terakan_image *image,
                                    const VkBufferImageCopy2 &region, bool to_image);
