{{/* Names and labels. */}}
{{- define "referee.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name, at most 54 characters so that "-headless" still fits in 63. */}}
{{- define "referee.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 54 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 54 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 54 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "referee.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "referee.selectorLabels" -}}
app.kubernetes.io/name: {{ include "referee.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "referee.labels" -}}
helm.sh/chart: {{ include "referee.chart" . }}
{{ include "referee.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: server
{{- end }}

{{- define "referee.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "referee.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "referee.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* The Secret holding the key file: the user's, or the one this chart creates. */}}
{{- define "referee.keysSecretName" -}}
{{- default (printf "%s-keys" (include "referee.fullname" .)) .Values.tokenKeys.existingSecret }}
{{- end }}

{{/* The key file JSON of the Secret this chart creates: from values, else the existing Secret's
     (kept across upgrades), else one new random key. */}}
{{- define "referee.keyFile" -}}
{{- $keys := .Values.tokenKeys -}}
{{- if $keys.keys -}}
{{- $active := required "tokenKeys.active must name one of tokenKeys.keys" $keys.active -}}
{{- if not (hasKey $keys.keys $active) -}}
{{- fail (printf "tokenKeys.active %q is not among tokenKeys.keys" $active) -}}
{{- end -}}
{{- dict "active" $active "keys" $keys.keys | toJson -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "referee.keysSecretName" .) -}}
{{- if and $existing (index ($existing.data | default dict) $keys.secretKey) -}}
{{- index $existing.data $keys.secretKey | b64dec -}}
{{- else -}}
{{- dict "active" "k1" "keys" (dict "k1" (randBytes 32)) | toJson -}}
{{- end -}}
{{- end -}}
{{- end }}

{{/* terminationGracePeriodSeconds: see `shutdown` in values.yaml. */}}
{{- define "referee.terminationGracePeriodSeconds" -}}
{{- with .Values.shutdown }}
{{- add .preStopSleepSeconds .drainSeconds .graceSeconds .marginSeconds }}
{{- end }}
{{- end }}
