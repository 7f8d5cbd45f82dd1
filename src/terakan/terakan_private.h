/* Terakan's Vulkan objects, each built on the matching object of Mesa's Vulkan runtime. */
#pragma once

#include <memory>

#include "vk_device.h"
#include "vk_instance.h"
#include "vk_log.h"
#include "vk_physical_device.h"
#include "vk_queue.h"

#include "vk_common_entrypoints.h"
#include "terakan_entrypoints.h"
#include "terakan_debug.h"

#include "hw/chips.h"
#include "winsys/radeon_device.h"

/* The Vulkan version Terakan implements. It stays at 1.0 until the 1.0 core is complete. */
#define TERAKAN_API_VERSION VK_MAKE_API_VERSION(0, 1, 0, VK_HEADER_VERSION)

/* See the driver properties in terakan_physical_device.cpp. */
#define TERAKAN_UNREGISTERED_DRIVER_ID 0x7E7A0000

struct terakan_instance {
   struct vk_instance vk;
   uint64_t debug_flags;
};

VK_DEFINE_HANDLE_CASTS(terakan_instance, vk.base, VkInstance, VK_OBJECT_TYPE_INSTANCE)

struct terakan_physical_device {
   struct vk_physical_device vk;

   /* Owned; the render node stays open for the physical device's lifetime so that device
    * creation cannot race with the node disappearing. */
   terakan::winsys::RadeonDevice *radeon;
   char render_node_path[64];

   const terakan::hw::PciIdEntry *pci;
   const terakan::hw::FamilyInfo *family;
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];
   uint8_t device_uuid[VK_UUID_SIZE];

   VkPhysicalDeviceMemoryProperties memory;
};

VK_DEFINE_HANDLE_CASTS(terakan_physical_device, vk.base, VkPhysicalDevice,
                       VK_OBJECT_TYPE_PHYSICAL_DEVICE)

struct terakan_queue {
   struct vk_queue vk;
};

struct terakan_device {
   struct vk_device vk;
   struct terakan_physical_device *physical;
   struct terakan_queue *queues;
   uint32_t queue_count;
};

VK_DEFINE_HANDLE_CASTS(terakan_device, vk.base, VkDevice, VK_OBJECT_TYPE_DEVICE)

/* terakan_physical_device.cpp */
VkResult terakan_physical_device_try_create(struct vk_instance *instance,
                                            struct _drmDevice *drm_device,
                                            struct vk_physical_device **out);
void terakan_physical_device_destroy(struct vk_physical_device *physical_device);

/* The one queue family Terakan exposes. */
void terakan_get_queue_family_properties(const struct terakan_physical_device *physical_device,
                                         VkQueueFamilyProperties *properties);
